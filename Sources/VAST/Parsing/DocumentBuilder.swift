import Findings
import XMLReading
/// Turns an `XMLNode` tree into the typed model, collecting warnings. One instance per document.
struct DocumentBuilder {
    private(set) var warnings: [VASTWarning] = []
    private var warningKeys = Set<String>()
    /// The UTF-8 input the tree was read from (`XMLNode.sourceRange` indexes it); empty when unknown.
    let source: [UInt8]

    init(source: [UInt8] = []) {
        self.source = source
    }

    mutating func warn(_ kind: VASTWarning.Kind, _ rule: Rule, _ message: String, _ path: String) {
        let key = "\(rule.id)|\(path)|\(message)"
        guard warningKeys.insert(key).inserted else { return }
        warnings.append(VASTWarning(kind, rule, message, path: path))
    }

    // MARK: Document

    /// Start of the 101 message for a non-VAST root; the resolver reports that case as 301 ("not VAST").
    static let notVASTMessagePrefix = "the root element is "

    mutating func build(root: XMLNode, tagURL: String?) throws(VASTError) -> VASTDocument {
        if root.name == "VideoAdServingTemplate" {
            throw VASTError(.unsupportedVersion, "VAST 1.0 (<VideoAdServingTemplate>) is not supported")
        }
        guard root.name == "VAST" else {
            throw VASTError(.schemaValidation, Self.notVASTMessagePrefix + "<\(root.qualifiedName)>, not <VAST>")
        }
        let version = root.stringAttribute("version")
        try checkVersion(version)

        let rootErrors = root.children("Error").compactMap { url($0, "VAST/Error") }
        let source: TrackingSource = .response(depth: 0, tagURL: tagURL)
        let sourcedRootErrors = rootErrors.map { SourcedURL(url: $0, source: source) }
        var ads: [Ad] = []
        var invalidAds: [InvalidAd] = []
        for (index, adNode) in root.children("Ad").enumerated() {
            let path = "VAST/Ad[\(index + 1)]"
            switch ad(adNode, path: path) {
            case .success(let ad): ads.append(ad)
            case .failure(let failure):
                warn(.invalidAd, .adInLineOrWrapper, "\(failure.reason) (error 101 for this ad; skipped)", path)
                let own = failure.errorURLs.map { SourcedURL(url: $0, source: source) }
                invalidAds.append(InvalidAd(
                    error: VASTError(.schemaValidation, "\(path): \(failure.reason)", errorURLs: own + sourcedRootErrors),
                    id: adNode.stringAttribute("id"), sequence: adNode.attribute("sequence").flatMap { Int($0) }))
            }
        }
        if ads.isEmpty {
            if !invalidAds.isEmpty {
                // Every broken ad's own Error URLs, then the root's once.
                let own = invalidAds.flatMap { $0.error.errorURLs.filter { !sourcedRootErrors.contains($0) } }
                throw VASTError(.schemaValidation, "no usable <Ad>: " + invalidAds.map(\.error.message).joined(separator: "; "),
                                errorURLs: own + sourcedRootErrors)
            }
            throw VASTError(.noAdAfterWrapper, "the VAST response contains no <Ad> (no-ad response)",
                            errorURLs: sourcedRootErrors)
        }
        return VASTDocument(version: version, ads: ads, errorURLs: rootErrors, warnings: warnings, invalidAds: invalidAds)
    }

    private mutating func checkVersion(_ version: String?) throws(VASTError) {
        guard let version else {
            warn(.version, .rootVersion, "<VAST> has no version attribute; read as VAST 4", "VAST")
            return
        }
        let majorText = version.split(separator: ".", maxSplits: 1).first.map(String.init) ?? version
        guard let major = Int(majorText.trimmingCharacters(in: .whitespaces)) else {
            warn(.version, .rootVersionValue, "version \"\(version)\" is not a number; read as VAST 4", "VAST")
            return
        }
        let minor = version.split(separator: ".").dropFirst().first.flatMap { Int($0) } ?? 0
        self.version = (major, minor)
        switch major {
        case 2...4: break
        case 1:
            self.version = (2, 0)
            warn(.version, .versionOne, "version \(version) declared on a <VAST> root; read as VAST 2", "VAST")
        default: throw VASTError(.unsupportedVersion, "VAST version \(version) is not supported (2.0–4.3 are)")
        }
    }

    // MARK: Ad

    private mutating func ad(_ node: XMLNode, path: String) -> Result<Ad, AdFailure> {
        let content: AdContent
        if let inLineNode = node.child("InLine") {
            if node.child("Wrapper") != nil {
                warn(.invalidAd, .adInLineOrWrapper, "<Ad> has both <InLine> and <Wrapper>; the InLine is used", path)
            }
            content = .inLine(inLine(inLineNode, path: path + "/InLine"))
        } else if let wrapperNode = node.child("Wrapper") {
            guard let wrapper = wrapper(wrapperNode, path: path + "/Wrapper") else {
                let errors = wrapperNode.children("Error").compactMap { url($0, path + "/Wrapper/Error") }
                return .failure(AdFailure("<Wrapper> has no <VASTAdTagURI>", errorURLs: errors))
            }
            content = .wrapper(wrapper)
        } else {
            let names = node.children.map { "<\($0.qualifiedName)>" }.joined(separator: ", ")
            // A mis-cased <inline>/<wrapper> still says where its ad server wants errors reported.
            let errors = node.children.filter { ["inline", "wrapper"].contains($0.name.lowercased()) }
                .flatMap { $0.children("Error") }.compactMap { url($0, path + "/Error") }
            return .failure(AdFailure("<Ad> has neither <InLine> nor <Wrapper>"
                + (names.isEmpty ? "" : " (children: \(names))"), errorURLs: errors))
        }
        var sequence: Int?
        if let text = node.attribute("sequence"), !text.isEmpty {
            sequence = Int(text)
            if sequence == nil { warn(.invalidValue, .adSequence, "sequence \"\(text)\" is not an integer; ignored", path) }
        }
        return .success(Ad(id: node.stringAttribute("id"), sequence: sequence,
                           conditionalAd: node.boolAttribute("conditionalAd"),
                           adType: node.stringAttribute("adType"), content: content))
    }

    struct AdFailure: Error {
        var reason: String
        /// `<Error>` URLs found in the broken ad.
        var errorURLs: [String]
        init(_ reason: String, errorURLs: [String] = []) {
            self.reason = reason
            self.errorURLs = errorURLs
        }
    }

    private mutating func inLine(_ node: XMLNode, path: String) -> InLine {
        var result = InLine()
        result.adSystem = adSystem(node)
        result.adTitle = node.child("AdTitle")?.nonEmptyText
        result.adServingId = node.child("AdServingId")?.nonEmptyText
        result.advertiser = node.child("Advertiser").flatMap { a in
            a.nonEmptyText.map { Advertiser(name: $0, id: a.stringAttribute("id")) }
        }
        result.description = node.child("Description")?.nonEmptyText
        result.pricing = pricing(node, path: path)
        result.categories = node.children("Category").enumerated().map { index, n in
            if isAtLeast(4, 0) { requireAttributes(["authority"], of: n, "\(path)/Category[\(index + 1)]") }
            return Category(code: n.text, authority: n.stringAttribute("authority"))
        }
        if let expires = node.child("Expires")?.nonEmptyText {
            result.expiresSeconds = Int(expires)
            if result.expiresSeconds == nil { warn(.invalidValue, .expires, "<Expires> \"\(expires)\" is not an integer", path) }
        }
        result.impressions = impressions(node, path: path)
        result.errorURLs = node.children("Error").compactMap { url($0, path + "/Error") }
        result.viewableImpression = node.child("ViewableImpression").map { viewable($0, path: path) }
        result.extensions = extensions(node, path: path)
        result.verifications = verifications(node, path: path)
        result.creatives = creatives(node, path: path, inLine: true)

        if result.adSystem == nil { warn(.missingRecommended, .inLineAdSystem, "<InLine> has no <AdSystem>", path) }
        if result.adTitle == nil { warn(.missingRecommended, .inLineAdTitle, "<InLine> has no <AdTitle>", path) }
        if result.impressions.isEmpty { warn(.missingRecommended, .inLineImpression, "<InLine> has no <Impression> URL", path) }
        if result.adServingId == nil, isAtLeast(4, 1) {
            warn(.missingRecommended, .adServingID, "<InLine> has no <AdServingId> (required since VAST 4.1)", path)
        }
        requireChildren(["Creatives"], of: node, path)
        if let creatives = node.child("Creatives") { requireChildren(["Creative"], of: creatives, path + "/Creatives") }
        return result
    }

    /// The VAST version the document is read as: as declared (1.x read as 2.0), or 4.0 when the version attribute
    /// is missing or not a number ("read as VAST 4"). Requirements that a version introduced (AdServingId in 4.1,
    /// UniversalAdId in 4.0…) are only checked from that version on.
    private(set) var version: (major: Int, minor: Int) = (4, 0)

    /// Whether the document is read as VAST `major.minor` or later.
    func isAtLeast(_ major: Int, _ minor: Int) -> Bool {
        version.major > major || (version.major == major && version.minor >= minor)
    }

    /// The wrapper, or `nil` when it has no `<VASTAdTagURI>` (the ad is then broken: error 101). Everything else is
    /// read either way, so a broken wrapper still draws the warnings of the rest of what is wrong with it.
    private mutating func wrapper(_ node: XMLNode, path: String) -> Wrapper? {
        var tagURI: String?
        if let tagNode = node.child("VASTAdTagURI"), let uri = url(tagNode, path + "/VASTAdTagURI") {
            tagURI = uri
        } else if let legacy = node.child("VASTAdTagURL")?.child("URL"), let uri = url(legacy, path + "/VASTAdTagURL/URL") {
            // VAST 1's form (`<VASTAdTagURL><URL>…</URL></VASTAdTagURL>`), still served by older ad servers; the
            // peer vast-client-js follows it too.
            warn(.version, .vastOneWrapperForm, "<VASTAdTagURL><URL> is VAST 1's wrapper form; followed as <VASTAdTagURI>", path)
            tagURI = uri
        }
        var result = Wrapper(vastAdTagURI: tagURI ?? "")
        result.adSystem = adSystem(node)
        result.followAdditionalWrappers = node.boolAttribute("followAdditionalWrappers")
        result.allowMultipleAds = node.boolAttribute("allowMultipleAds")
        result.fallbackOnNoAd = node.boolAttribute("fallbackOnNoAd")
        result.impressions = impressions(node, path: path)
        result.errorURLs = node.children("Error").compactMap { url($0, path + "/Error") }
        result.viewableImpression = node.child("ViewableImpression").map { viewable($0, path: path) }
        result.pricing = pricing(node, path: path)
        result.blockedAdCategories = blockedAdCategories(node, path: path)
        result.extensions = extensions(node, path: path)
        result.verifications = verifications(node, path: path)
        result.creatives = creatives(node, path: path, inLine: false)

        // Required in a Wrapper by every VAST XSD (2.0 to 4.2); a missing VASTAdTagURI is the ad's 101 failure.
        if result.adSystem == nil { warn(.missingRecommended, .wrapperAdSystem, "<Wrapper> has no <AdSystem>", path) }
        if result.impressions.isEmpty { warn(.missingRecommended, .wrapperImpression, "<Wrapper> has no <Impression> URL", path) }
        return tagURI == nil ? nil : result
    }

    /// `<BlockedAdCategories>` (VAST 4.1, 0+ per wrapper): each element's comma-separated codes, as the spec writes
    /// them (`<BlockedAdCategories authority="…">IAB1-1,IAB1-2</BlockedAdCategories>`); some tags nest `<Category>`
    /// children instead.
    private mutating func blockedAdCategories(_ node: XMLNode, path: String) -> [Category] {
        var result: [Category] = []
        for (index, blocked) in node.children("BlockedAdCategories").enumerated() {
            let p = "\(path)/BlockedAdCategories[\(index + 1)]"
            let nested = blocked.children("Category")
            if nested.isEmpty {
                // "The authority attribute is required if categories are provided" (VAST 4.3 §3.19.2).
                if isAtLeast(4, 1), blocked.nonEmptyText != nil { requireAttributes(["authority"], of: blocked, p) }
                let authority = blocked.stringAttribute("authority")
                result += blocked.text.split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
                    .map { Category(code: $0, authority: authority) }
            } else {
                result += nested.map { Category(code: $0.text, authority: $0.stringAttribute("authority") ?? blocked.stringAttribute("authority")) }
            }
        }
        return result
    }

    // MARK: Common pieces

    /// A URL element's trimmed text; `nil` when empty. Records unknown macros.
    mutating func url(_ node: XMLNode, _ path: String) -> String? {
        guard let text = node.nonEmptyText else { return nil }
        noteMacros(text, path)
        return text
    }

    mutating func noteMacros(_ text: String, _ path: String) {
        for name in URLTemplate.unknownMacros(in: text) {
            warn(.unknownMacro, .macroUnknown, "[\(name)] is not a VAST 4.x macro", path)
        }
        for name in URLTemplate.legacyMacros(in: text) {
            warn(.unknownMacro, .macroUnknown, "[\(name)] is not a VAST 4.x macro; expanded per request like [CACHEBUSTING], as older players do", path)
        }
    }

    private func adSystem(_ node: XMLNode) -> AdSystem? {
        guard let n = node.child("AdSystem"), let name = n.nonEmptyText else { return nil }
        return AdSystem(name: name, version: n.stringAttribute("version"))
    }

    private mutating func pricing(_ node: XMLNode, path: String) -> Pricing? {
        guard let n = node.child("Pricing") else { return nil }
        if isAtLeast(3, 0) { requireAttributes(["model", "currency"], of: n, path + "/Pricing") }
        guard let value = n.nonEmptyText else { return nil }
        return Pricing(model: n.stringAttribute("model"), currency: n.stringAttribute("currency"), value: value)
    }

    private mutating func impressions(_ node: XMLNode, path: String) -> [Impression] {
        var result: [Impression] = []
        for n in node.children("Impression") {
            guard let u = url(n, path + "/Impression") else {
                warn(.missingRecommended, .urlEmpty, "empty <Impression> ignored", path + "/Impression")
                continue
            }
            result.append(Impression(id: n.stringAttribute("id"), url: u))
        }
        return result
    }

    private mutating func viewable(_ node: XMLNode, path: String) -> ViewableImpression {
        let p = path + "/ViewableImpression"
        return ViewableImpression(
            id: node.stringAttribute("id"),
            viewable: node.children("Viewable").compactMap { url($0, p + "/Viewable") },
            notViewable: node.children("NotViewable").compactMap { url($0, p + "/NotViewable") },
            viewUndetermined: node.children("ViewUndetermined").compactMap { url($0, p + "/ViewUndetermined") })
    }

    mutating func tracking(_ container: XMLNode?, path: String) -> [TrackingEvent] {
        guard let container else { return [] }
        var result: [TrackingEvent] = []
        for n in container.children("Tracking") {
            let p = path + "/Tracking"
            guard let name = n.stringAttribute("event") else {
                warn(.missingRecommended, .trackingEventMissing, "<Tracking> lacks required attribute(s): event; ignored", p)
                continue
            }
            guard let u = url(n, p + "[@event=\(name)]") else { continue }
            let event = TrackingEventName(rawValue: name)
            if !event.isKnown {
                warn(.unknownTrackingEvent, .trackingEventValue, "unknown tracking event \"\(name)\" (never fired)", p)
            } else if event == .notUsed {
                warn(.notUsedEvent, .notUsedEvent, "\"notUsed\" is VAST 4.2+ and missing from the 4.1/4.2 XSD", p)
            }
            var offset: TimeOffset?
            if let text = n.stringAttribute("offset") {
                offset = TimeOffset(parsing: text)
                if offset == nil { warn(.invalidValue, .progressOffsetFormat, "offset \"\(text)\" of \(name) does not parse", p) }
            } else if event == .progress {
                warn(.invalidValue, .progressOffset, "progress tracking without an offset (never fired)", p)
            }
            result.append(TrackingEvent(event: event, offset: offset, url: u))
        }
        return result
    }

    mutating func clickURLs(_ nodes: [XMLNode], path: String) -> [ClickURL] {
        nodes.compactMap { n in url(n, path).map { ClickURL(id: n.stringAttribute("id"), url: $0) } }
    }

    func resources(_ node: XMLNode) -> [CreativeResource] {
        var result: [CreativeResource] = []
        for child in node.children {
            switch child.name {
            case "StaticResource":
                if let t = child.nonEmptyText {
                    result.append(.staticResource(creativeType: child.stringAttribute("creativeType"), url: t))
                }
            case "IFrameResource":
                if let t = child.nonEmptyText { result.append(.iframe(url: t)) }
            case "HTMLResource":
                if let t = child.nonEmptyText { result.append(.html(t)) }
            default:
                break
            }
        }
        return result
    }
}
