import Findings
import XMLReading
extension DocumentBuilder {
    mutating func creatives(_ node: XMLNode, path: String, inLine: Bool) -> [Creative] {
        guard let container = node.child("Creatives") else { return [] }
        var result: [Creative] = []
        for (index, n) in container.children("Creative").enumerated() {
            let p = "\(path)/Creatives/Creative[\(index + 1)]"
            var creative = Creative(id: n.stringAttribute("id"), adId: n.stringAttribute("adId") ?? n.stringAttribute("AdID"),
                                    sequence: n.intAttribute("sequence"), apiFramework: n.stringAttribute("apiFramework"))
            // UniversalAdId (VAST 4.0): 1+ in every InLine creative, with an idRegistry ("unknown" when there is none).
            if inLine, isAtLeast(4, 0) { requireChildren(["UniversalAdId"], of: n, p) }
            creative.universalAdIds = n.children("UniversalAdId").enumerated().compactMap { index, u in
                if isAtLeast(4, 0) { requireAttributes(["idRegistry"], of: u, "\(p)/UniversalAdId[\(index + 1)]") }
                let value = u.nonEmptyText ?? u.stringAttribute("idValue")
                return value.map { UniversalAdId(idRegistry: u.stringAttribute("idRegistry"), value: $0) }
            }
            if let linear = n.child("Linear") { creative.linear = self.linear(linear, path: p + "/Linear", inLine: inLine) }
            if let companions = n.child("CompanionAds") {
                creative.companionAds = companionAds(companions, path: p + "/CompanionAds", inLine: inLine)
            }
            if let nonLinear = n.child("NonLinearAds") {
                creative.nonLinearAds = nonLinearAds(nonLinear, path: p + "/NonLinearAds", inLine: inLine)
            }
            result.append(creative)
        }
        return result
    }

    private mutating func linear(_ node: XMLNode, path: String, inLine: Bool) -> Linear {
        var result = Linear()
        if let text = node.child("Duration")?.nonEmptyText {
            result.duration = VASTTime.parseDuration(text)
            if result.duration == nil { warn(.invalidValue, .durationFormat, "<Duration> \"\(text)\" does not parse", path) }
        } else if inLine {
            warn(.missingRecommended, .linearDuration, "<Linear> has no <Duration>", path)
        }
        if let text = node.stringAttribute("skipoffset") {
            result.skipOffset = TimeOffset(parsing: text)
            if result.skipOffset == nil { warn(.invalidValue, .skipOffsetFormat, "skipoffset \"\(text)\" does not parse (not skippable)", path) }
        }
        result.tracking = tracking(node.child("TrackingEvents"), path: path + "/TrackingEvents")
        if let clicks = node.child("VideoClicks") {
            let p = path + "/VideoClicks"
            result.videoClicks = VideoClicks(
                clickThrough: clickURLs(clicks.children("ClickThrough"), path: p + "/ClickThrough").first,
                clickTracking: clickURLs(clicks.children("ClickTracking"), path: p + "/ClickTracking"),
                customClicks: clickURLs(clicks.children("CustomClick"), path: p + "/CustomClick"))
        }
        if let files = node.child("MediaFiles") {
            let p = path + "/MediaFiles"
            result.mediaFiles = files.children("MediaFile").enumerated().compactMap { mediaFile($1, path: "\(p)/MediaFile[\($0 + 1)]") }
            result.mezzanines = files.children("Mezzanine").enumerated().compactMap { index, m in
                // Required from VAST 4.1's XSD on (4.0's Mezzanine had no attributes; IAB's own 4.0 samples have none).
                if isAtLeast(4, 1) { requireAttributes(["delivery", "type", "width", "height"], of: m, "\(p)/Mezzanine[\(index + 1)]") }
                return url(m, p + "/Mezzanine").map {
                    Mezzanine(id: m.stringAttribute("id"), delivery: m.stringAttribute("delivery"),
                              type: m.stringAttribute("type"), width: m.intAttribute("width"),
                              height: m.intAttribute("height"), codec: m.stringAttribute("codec"),
                              fileSize: m.intAttribute("fileSize"), mediaType: m.stringAttribute("mediaType"), url: $0)
                }
            }
            result.interactiveCreativeFiles = files.children("InteractiveCreativeFile").compactMap { f in
                url(f, p + "/InteractiveCreativeFile").map {
                    InteractiveCreativeFile(type: f.stringAttribute("type"), apiFramework: f.stringAttribute("apiFramework"),
                                            variableDuration: f.boolAttribute("variableDuration"), url: $0)
                }
            }
            result.closedCaptionFiles = (files.child("ClosedCaptionFiles")?.children("ClosedCaptionFile") ?? []).compactMap { f in
                url(f, p + "/ClosedCaptionFiles/ClosedCaptionFile").map {
                    ClosedCaptionFile(type: f.stringAttribute("type"), language: f.stringAttribute("language"), url: $0)
                }
            }
            if inLine && result.mediaFiles.isEmpty && result.interactiveCreativeFiles.isEmpty {
                warn(.missingRecommended, .linearMediaFiles, "<MediaFiles> has no <MediaFile> with a URL", p)
            }
        } else if inLine {
            warn(.missingRecommended, .linearMediaFiles, "<Linear> has no <MediaFiles>", path)
        }
        if let icons = node.child("Icons") {
            if isAtLeast(3, 0) { requireChildren(["Icon"], of: icons, path + "/Icons") }
            result.icons = icons.children("Icon").enumerated().map { icon($1, path: "\(path)/Icons/Icon[\($0 + 1)]", inLine: inLine) }
        }
        result.adParameters = node.child("AdParameters")?.nonEmptyText
        return result
    }

    private mutating func mediaFile(_ n: XMLNode, path: String) -> MediaFile? {
        guard let u = url(n, path) else {
            warn(.missingRecommended, .urlEmpty, "<MediaFile> without a URL ignored", path)
            return nil
        }
        let pixels = Self.maxMediaPixels, kbps = Self.maxMediaBitrateKbps
        let file = MediaFile(
            id: n.stringAttribute("id"), delivery: n.stringAttribute("delivery"), type: n.stringAttribute("type"),
            width: bounded(n, "width", limit: pixels, path), height: bounded(n, "height", limit: pixels, path),
            codec: n.stringAttribute("codec"), bitrate: bounded(n, "bitrate", limit: kbps, path),
            minBitrate: bounded(n, "minBitrate", limit: kbps, path),
            maxBitrate: bounded(n, "maxBitrate", limit: kbps, path), scalable: n.boolAttribute("scalable"),
            maintainAspectRatio: n.boolAttribute("maintainAspectRatio"), apiFramework: n.stringAttribute("apiFramework"),
            fileSize: n.intAttribute("fileSize"), mediaType: n.stringAttribute("mediaType"), url: u)
        var missing: [String] = []
        if file.delivery == nil { missing.append("delivery") }
        if file.type == nil { missing.append("type") }
        if file.width == nil { missing.append("width") }
        if file.height == nil { missing.append("height") }
        // One warning per rule: delivery, type, and the size together.
        for (rule, names) in Self.byRule(missing, of: "MediaFile") {
            warn(.missingRecommended, rule, "<MediaFile> lacks required attribute(s): \(names.joined(separator: ", "))", path)
        }
        return file
    }

    /// Largest `width`/`height` of a MediaFile kept as written, in pixels: 16K video is 15 360 pixels wide, so a
    /// larger value is a mistake or an attack (two 18-digit values overflowed `width × height`).
    static let maxMediaPixels = 100_000
    /// Largest MediaFile bitrate kept as written, in kbps (10 Gbit/s, far above any mezzanine file).
    static let maxMediaBitrateKbps = 10_000_000

    /// An integer attribute that counts something (pixels, kbps): a negative value is ignored and a value above
    /// `limit` is clamped to it, each with an `invalidValue` warning.
    private mutating func bounded(_ n: XMLNode, _ name: String, limit: Int, _ path: String) -> Int? {
        guard let value = n.intAttribute(name) else {
            if let text = n.stringAttribute(name) { warn(.invalidValue, .integerAttribute, "\(name)=\"\(text)\" is not an integer; ignored", path) }
            return nil
        }
        if value < 0 {
            warn(.invalidValue, .integerAttribute, "\(name)=\"\(value)\" is negative; ignored", path)
            return nil
        }
        if value > limit {
            warn(.invalidValue, .integerAttribute, "\(name)=\"\(value)\" is above \(limit); clamped to \(limit)", path)
            return limit
        }
        return value
    }

    private mutating func icon(_ n: XMLNode, path: String, inLine: Bool) -> Icon {
        // An InLine icon shows a resource; a wrapper's may carry only tracking (vast-client-js checks InLine only).
        if inLine { requireOneOf(Self.creativeResourceNames, of: n, path, why: "nothing to show") }
        requireStaticResourceTypes(of: n, path)
        var icon = Icon(program: n.stringAttribute("program"), width: n.intAttribute("width"),
                        height: n.intAttribute("height"), xPosition: n.stringAttribute("xPosition"),
                        yPosition: n.stringAttribute("yPosition"), apiFramework: n.stringAttribute("apiFramework"),
                        pxratio: n.stringAttribute("pxratio"), resources: resources(n))
        if let text = n.stringAttribute("duration") {
            icon.duration = VASTTime.parseDuration(text)
            if icon.duration == nil { warn(.invalidValue, .iconTimeFormat, "icon duration \"\(text)\" does not parse", path) }
        }
        if let text = n.stringAttribute("offset") {
            icon.offset = VASTTime.parseDuration(text)
            if icon.offset == nil { warn(.invalidValue, .iconTimeFormat, "icon offset \"\(text)\" does not parse", path) }
        }
        if let clicks = n.child("IconClicks") {
            icon.clickThrough = clicks.child("IconClickThrough").flatMap { url($0, path + "/IconClicks/IconClickThrough") }
            icon.clickTracking = clickURLs(clicks.children("IconClickTracking"), path: path + "/IconClicks/IconClickTracking")
            icon.clickFallbackImages = (clicks.child("IconClickFallbackImages")?.children("IconClickFallbackImage") ?? [])
                .compactMap { image in (image.child("StaticResource") ?? image).nonEmptyText }
        }
        icon.viewTracking = n.children("IconViewTracking").compactMap { url($0, path + "/IconViewTracking") }
        return icon
    }

    private mutating func companionAds(_ node: XMLNode, path: String, inLine: Bool) -> CompanionAds {
        var required: CompanionRequirement?
        if let text = node.stringAttribute("required") {
            required = CompanionRequirement(rawValue: text.lowercased())
            if required == nil { warn(.invalidValue, .companionRequired, "required=\"\(text)\" is not all/any/none", path) }
        }
        let companions = node.children("Companion").enumerated().map { index, n in
            let p = "\(path)/Companion[\(index + 1)]"
            // width and height: required by every XSD, in wrappers too; a resource: what an InLine companion shows.
            requireAttributes(["width", "height"], of: n, p)
            if inLine { requireOneOf(Self.creativeResourceNames, of: n, p, why: "nothing to show") }
            requireStaticResourceTypes(of: n, p)
            return Companion(
                id: n.stringAttribute("id"), width: n.intAttribute("width"), height: n.intAttribute("height"),
                assetWidth: n.intAttribute("assetWidth"), assetHeight: n.intAttribute("assetHeight"),
                expandedWidth: n.intAttribute("expandedWidth"), expandedHeight: n.intAttribute("expandedHeight"),
                apiFramework: n.stringAttribute("apiFramework"), adSlotId: n.stringAttribute("adSlotId") ?? n.stringAttribute("adSlotID"),
                pxratio: n.stringAttribute("pxratio"), renderingMode: n.stringAttribute("renderingMode"),
                resources: resources(n),
                clickThrough: n.child("CompanionClickThrough").flatMap { url($0, p + "/CompanionClickThrough") },
                clickTracking: clickURLs(n.children("CompanionClickTracking"), path: p + "/CompanionClickTracking"),
                tracking: tracking(n.child("TrackingEvents"), path: p + "/TrackingEvents"),
                altText: n.child("AltText")?.nonEmptyText, adParameters: n.child("AdParameters")?.nonEmptyText)
        }
        return CompanionAds(required: required, companions: companions)
    }

    private mutating func nonLinearAds(_ node: XMLNode, path: String, inLine: Bool) -> NonLinearAds {
        let items = node.children("NonLinear").enumerated().map { index, n in
            let p = "\(path)/NonLinear[\(index + 1)]"
            // A wrapper's NonLinear is tracking only (its XSD type has no required attribute); an InLine's is shown.
            if inLine {
                requireAttributes(["width", "height"], of: n, p)
                requireOneOf(Self.creativeResourceNames, of: n, p, why: "nothing to show")
            }
            requireStaticResourceTypes(of: n, p)
            return NonLinear(
                id: n.stringAttribute("id"), width: n.intAttribute("width"), height: n.intAttribute("height"),
                minSuggestedDuration: n.stringAttribute("minSuggestedDuration").flatMap(VASTTime.parseDuration),
                apiFramework: n.stringAttribute("apiFramework"), resources: resources(n),
                clickThrough: n.child("NonLinearClickThrough").flatMap { url($0, p + "/NonLinearClickThrough") },
                clickTracking: clickURLs(n.children("NonLinearClickTracking"), path: p + "/NonLinearClickTracking"))
        }
        return NonLinearAds(nonLinears: items, tracking: tracking(node.child("TrackingEvents"), path: path + "/TrackingEvents"))
    }
}
