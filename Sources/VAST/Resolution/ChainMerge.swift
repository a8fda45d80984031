import Foundation

/// The wrapper chain merged link by link, outermost first: every URL as it is requested (protocol-relative ones take
/// their own document's scheme), those never requested noted (not http(s), or not absolute).
struct ChainMerge {
    /// What one link of the chain (a wrapper, or the InLine last) contributes.
    struct Link {
        var source: TrackingSource
        /// The URL of the response that held it.
        var document: String?
        var impressions: [Impression]
        var errors: [String]
        var viewable: ViewableImpression?
        var verifications: [Verification]
        var creatives: [Creative]
        var extensions: [Extension]
    }

    var impressions: [SourcedURL] = [], errors: [SourcedURL] = [], tracking: [SourcedTracking] = []
    var clickTracking: [SourcedURL] = [], customClicks: [SourcedURL] = [], companions: [Sourced<Companion>] = []
    var companionView: [SourcedURL] = [], companionClicks: [SourcedURL] = [], icons: [Sourced<Icon>] = []
    var verifications: [Sourced<Verification>] = [], viewable: [SourcedURL] = [], notViewable: [SourcedURL] = []
    var undetermined: [SourcedURL] = [], extensions: [Sourced<Extension>] = []
    var clickThrough: SourcedURL?
    /// URLs dropped: not http(s), and not absolute even with their document's scheme.
    var dropped: [SourcedURL] = [], relative: [SourcedURL] = []
    /// The document of the link being merged.
    private var document: String?

    /// `url` as it is requested, or nil (and noted) when it never is.
    private mutating func request(_ url: String, _ source: TrackingSource) -> String? {
        switch URLTemplate.dispatchForm(url, documentURL: document) {
        case let .request(form): return form
        case .blank: return nil
        case .notHTTP: dropped.append(SourcedURL(url: url, source: source))
        case .notAbsolute: relative.append(SourcedURL(url: url, source: source))
        }
        return nil
    }

    private mutating func dispatchable(_ events: [TrackingEvent], _ source: TrackingSource) -> [TrackingEvent] {
        events.compactMap { event in request(event.url, source).map { var e = event; e.url = $0; return e } }
    }

    private mutating func dispatchable(_ clicks: [ClickURL], _ source: TrackingSource) -> [ClickURL] {
        clicks.compactMap { click in request(click.url, source).map { var c = click; c.url = $0; return c } }
    }

    private mutating func sourced(_ urls: [String], _ source: TrackingSource) -> [SourcedURL] {
        urls.compactMap { request($0, source) }.map { SourcedURL(url: $0, source: source) }
    }

    /// A page a click opens: a protocol-relative one takes the document's scheme; anything else is as written (a
    /// landing page may be an app link).
    private func page(_ url: String) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("//"), case let .request(form) = URLTemplate.dispatchForm(trimmed, documentURL: document) { return form }
        return url
    }

    /// Adds `link`, whose `linears` apply to the ad that plays.
    mutating func add(_ link: Link, linears: [Linear]) {
        let src = link.source
        document = link.document
        for impression in link.impressions {
            if let url = request(impression.url, src) { impressions.append(SourcedURL(url: url, id: impression.id, source: src)) }
        }
        errors += sourced(link.errors, src)
        if let v = link.viewable {
            viewable += sourced(v.viewable, src)
            notViewable += sourced(v.notViewable, src)
            undetermined += sourced(v.viewUndetermined, src)
        }
        for verification in link.verifications {
            var v = verification
            v.tracking = dispatchable(v.tracking, src)
            verifications.append(Sourced(v, source: src))
        }
        extensions += link.extensions.map { Sourced($0, source: src) }
        for linear in linears { add(linear, src) }
        for original in link.creatives.compactMap(\.companionAds).flatMap(\.companions) { add(original, src) }
    }

    private mutating func add(_ linear: Linear, _ src: TrackingSource) {
        tracking += dispatchable(linear.tracking, src).map { SourcedTracking(event: $0.event, offset: $0.offset, url: $0.url, source: src) }
        clickTracking += dispatchable(linear.videoClicks.clickTracking, src).map { SourcedURL(url: $0.url, id: $0.id, source: src) }
        customClicks += dispatchable(linear.videoClicks.customClicks, src).map { SourcedURL(url: $0.url, id: $0.id, source: src) }
        if let through = linear.videoClicks.clickThrough {
            // Later links are closer to the InLine, so the last one seen wins.
            clickThrough = SourcedURL(url: page(through.url), id: through.id, source: src)
        }
        for icon in linear.icons {
            var i = icon
            i.viewTracking = i.viewTracking.compactMap { request($0, src) }
            i.clickThrough = i.clickThrough.map(page)
            i.clickTracking = dispatchable(i.clickTracking, src)
            icons.append(Sourced(i, source: src))
        }
    }

    private mutating func add(_ original: Companion, _ src: TrackingSource) {
        var companion = original
        companion.tracking = dispatchable(companion.tracking, src)
        companion.clickTracking = dispatchable(companion.clickTracking, src)
        companion.clickThrough = companion.clickThrough.map(page)
        if companion.resources.isEmpty && src != .inline {
            companionView += companion.tracking.filter { $0.event == .creativeView }.map { SourcedURL(url: $0.url, source: src) }
            companionClicks += companion.clickTracking.map { SourcedURL(url: $0.url, id: $0.id, source: src) }
        } else {
            companions.append(Sourced(companion, source: src))
        }
    }
}
