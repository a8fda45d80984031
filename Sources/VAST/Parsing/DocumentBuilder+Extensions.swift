import XMLReading
extension DocumentBuilder {
    mutating func extensions(_ node: XMLNode, path: String) -> [Extension] {
        (node.child("Extensions")?.children("Extension") ?? []).map { n in
            Extension(type: n.stringAttribute("type"), name: n.stringAttribute("name"), rawXML: rawXML(n),
                      rewarded: rewarded(n))
        }
    }

    /// The element's bytes exactly as they appear in the input (UTF-8; the input re-encoded when it was UTF-16 or
    /// Latin-1): attribute order, comments, CDATA and mixed content kept. Falls back to re-serialising the element
    /// if its position is unknown or does not look like this element.
    func rawXML(_ n: XMLNode) -> String {
        if let range = n.sourceRange, range.lowerBound >= 0, range.upperBound <= source.count {
            let slice = source[range]
            let open = Array("<\(n.qualifiedName)".utf8)
            if slice.starts(with: open), slice.last == UInt8(ascii: ">"),
               let raw = String(validating: slice, as: UTF8.self) {
                return raw
            }
        }
        return n.xmlString
    }

    /// `<AdVerifications>` of the ad, plus any inside `<Extension type="AdVerifications">` (how VAST 2/3/4.0 tags
    /// carry Open Measurement, e.g. the IAB sample `Inline_NonLinear_Verification_VAST2.0.xml`).
    mutating func verifications(_ node: XMLNode, path: String) -> [Verification] {
        var containers: [(XMLNode, String)] = node.children("AdVerifications").map { ($0, path + "/AdVerifications") }
        for (index, ext) in (node.child("Extensions")?.children("Extension") ?? []).enumerated()
        where ext.stringAttribute("type")?.lowercased() == "adverifications" {
            for c in ext.children("AdVerifications") {
                containers.append((c, "\(path)/Extensions/Extension[\(index + 1)]/AdVerifications"))
            }
        }
        var result: [Verification] = []
        for (container, p) in containers {
            for (index, n) in container.children("Verification").enumerated() {
                let vp = "\(p)/Verification[\(index + 1)]"
                // VAST 4.1 (OM): vendor and each resource's attributes are required; a resource "should be
                // provided". Not checked on older documents, whose <Extension type="AdVerifications"> predates them.
                if isAtLeast(4, 1) {
                    requireAttributes(["vendor"], of: n, vp)
                    requireOneOf(["JavaScriptResource", "ExecutableResource"], of: n, vp, why: "nothing to run")
                    for (i, r) in n.children("JavaScriptResource").enumerated() {
                        requireAttributes(["apiFramework", "browserOptional"], of: r, "\(vp)/JavaScriptResource[\(i + 1)]")
                    }
                    for (i, r) in n.children("ExecutableResource").enumerated() {
                        requireAttributes(["apiFramework", "type"], of: r, "\(vp)/ExecutableResource[\(i + 1)]")
                    }
                }
                let js = n.children("JavaScriptResource").compactMap { r in
                    url(r, vp + "/JavaScriptResource").map {
                        VerificationResource(apiFramework: r.stringAttribute("apiFramework"),
                                             browserOptional: r.boolAttribute("browserOptional"), type: nil, url: $0)
                    }
                }
                let exe = n.children("ExecutableResource").compactMap { r in
                    url(r, vp + "/ExecutableResource").map {
                        VerificationResource(apiFramework: r.stringAttribute("apiFramework"), browserOptional: nil,
                                             type: r.stringAttribute("type"), url: $0)
                    }
                }
                result.append(Verification(vendor: n.stringAttribute("vendor"), javaScriptResources: js,
                                           executableResources: exe,
                                           parameters: n.child("VerificationParameters")?.nonEmptyText,
                                           tracking: tracking(n.child("TrackingEvents"), path: vp + "/TrackingEvents")))
            }
        }
        return result
    }

    /// The Adcash-style rewarded extension (see `RewardedExtension`), or `nil`.
    func rewarded(_ n: XMLNode) -> RewardedExtension? {
        let label = (n.stringAttribute("name") ?? n.stringAttribute("type") ?? "").lowercased()
        guard label == "rewardedvideo" || n.child("RewardedVideoOn") != nil else { return nil }
        func flag(_ name: String) -> Bool {
            guard let t = n.child(name)?.text.lowercased() else { return false }
            return t == "1" || t == "true" || t == "yes"
        }
        let amountText = n.child("RewardPerView")?.nonEmptyText
        return RewardedExtension(
            isEnabled: flag("RewardedVideoOn"), currencyName: n.child("VirtualCurrency")?.nonEmptyText,
            amount: amountText.flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }, amountText: amountText,
            currencyImageURL: n.child("VirtualCurrencyImage")?.nonEmptyText,
            preRollMessage: flag("PreRollMessageOn"), postRollMessage: flag("PostRollMessageOn"))
    }
}
