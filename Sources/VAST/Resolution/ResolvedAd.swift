/// An InLine ad with its wrapper chain merged in.
///
/// **Order of merged lists** (deterministic): outermost wrapper first, then each inner wrapper, the InLine last;
/// within one ad, document order. This holds for impressions and error URLs (the spec says to fire them together;
/// outermost-first is also what vast-client-js does) and, for one rule everywhere, for tracking, click tracking,
/// custom clicks, icons, verifications, viewable-impression URLs and extensions too. Nothing is de-duplicated: the
/// same URL in two wrappers is two beacons, as the spec intends.
///
/// Only dispatchable URLs are kept in every list a session fires (impressions, errors, tracking of the Linear, the
/// companions, the icons and the verifications, click tracking, viewable impressions), in the form they are requested
/// (`URLTemplate.dispatchForm`): a protocol-relative `//host/p` takes the scheme of the document it was written in
/// (https for a local file); empty URLs and `about:blank` are dropped silently; any scheme other than http(s)
/// (`file:`, `javascript:`, `data:`…) is dropped and listed in `undispatchableURLs`, and a URL that is still not
/// absolute (`you_shall_not_path`) in `relativeURLs`, so the resolver can warn once about each. A ClickThrough that
/// is protocol-relative takes its document's scheme too.
///
/// Creatives: tracking of the wrappers' `<Linear>` creatives merges into the InLine's (first) Linear. A wrapper
/// `<Companion>` with a resource is an extra companion; one without any resource is tracking-only and its
/// `creativeView` tracking and `CompanionClickTracking` apply to every companion (`companionCreativeView`,
/// `companionClickTracking`). ClickThrough: the InLine's wins, else the nearest wrapper's (VAST 4.2 allows
/// ClickThrough in wrappers; the spec prefers the creative closest to the InLine).
public struct ResolvedAd: Sendable, Hashable, Encodable {
    /// The InLine's `<Ad>`.
    public var ad: Ad
    /// The InLine.
    public var inLine: InLine
    /// The wrappers that led here, outermost first. Empty for an ad that was InLine in the first response.
    public var wrappers: [WrapperLink]
    /// Pod position: the `sequence` of the ad in the first response (the outermost wrapper or the InLine itself),
    /// else the InLine's own `sequence`. `nil` for a buffet ad.
    public var sequence: Int?
    /// Whether the ad in the first response had a `sequence` (this ad fills a pod slot).
    public var isPodAd: Bool

    /// The InLine creative that holds the `<Linear>` to play (the first one), if any.
    public var linearCreative: Creative?
    /// `<Impression>` URLs of the chain, fireable only.
    public var impressions: [SourcedURL]
    /// `<Error>` URLs of every ad of the chain.
    public var errorURLs: [SourcedURL]
    /// Linear tracking of the chain, every event (incl. `progress` with offsets).
    public var linearTracking: [SourcedTracking]
    /// `<ClickThrough>`: the InLine's, else the nearest wrapper's.
    public var clickThrough: SourcedURL?
    /// `<ClickTracking>` of the chain.
    public var clickTracking: [SourcedURL]
    /// `<CustomClick>` of the chain.
    public var customClicks: [SourcedURL]
    /// Displayable companions (InLine's and wrappers'), with their own tracking.
    public var companions: [Sourced<Companion>]
    /// The InLine's `CompanionAds@required`.
    public var companionRequirement: CompanionRequirement?
    /// `creativeView` URLs of tracking-only wrapper companions: fire with whichever companion is shown.
    public var companionCreativeView: [SourcedURL]
    /// `CompanionClickTracking` of tracking-only wrapper companions: fire on any companion click.
    public var companionClickTracking: [SourcedURL]
    /// Icons of the chain's Linear creatives.
    public var icons: [Sourced<Icon>]
    /// Verifications of the chain (run all of them, wrappers' included).
    public var verifications: [Sourced<Verification>]
    /// `<Viewable>` URLs of the chain.
    public var viewable: [SourcedURL]
    /// `<NotViewable>` URLs of the chain.
    public var notViewable: [SourcedURL]
    /// `<ViewUndetermined>` URLs of the chain.
    public var viewUndetermined: [SourcedURL]
    /// Extensions of the chain.
    public var extensions: [Sourced<Extension>]
    /// Tracking, error and click-tracking URLs dropped because their scheme is not http(s), in merge order.
    public var undispatchableURLs: [SourcedURL]
    /// Tracking, error and click-tracking URLs dropped because they are not absolute, even with their document's
    /// scheme (`you_shall_not_path`), in merge order. Never requested, so never a failed beacon.
    public var relativeURLs: [SourcedURL]
    /// The URL the InLine's response finally came from (after redirects), when the resolver knows it: the base for
    /// relative MediaFile URLs.
    public var inLineResponseURL: String?

    /// Merges `inLineAd` with `wrappers` (outermost first). `inLineDocumentURL` is the URL of the response that
    /// held the InLine (a `file:` URL for a local tag): protocol-relative URLs of the InLine take its scheme, those
    /// of a wrapper its own response's (`WrapperLink.tagURL`).
    public init(inLineAd: Ad, inLine: InLine, wrappers: [WrapperLink], topLevelSequence: Int?, isPodAd: Bool,
                inLineDocumentURL: String? = nil) {
        self.ad = inLineAd
        self.inLine = inLine
        self.wrappers = wrappers
        self.sequence = topLevelSequence ?? inLineAd.sequence
        self.isPodAd = isPodAd
        self.linearCreative = inLine.linearCreative

        let links: [(source: TrackingSource, document: String?, impressions: [Impression], errors: [String],
                     viewable: ViewableImpression?, verifications: [Verification], creatives: [Creative],
                     extensions: [Extension])] =
            wrappers.map { ($0.source, $0.tagURL, $0.wrapper.impressions, $0.wrapper.errorURLs, $0.wrapper.viewableImpression,
                            $0.wrapper.verifications, $0.wrapper.creatives, $0.wrapper.extensions) }
            + [(.inline, inLineDocumentURL, inLine.impressions, inLine.errorURLs, inLine.viewableImpression, inLine.verifications,
                inLine.creatives, inLine.extensions)]

        var impressions: [SourcedURL] = [], errors: [SourcedURL] = [], tracking: [SourcedTracking] = []
        var clickTracking: [SourcedURL] = [], customClicks: [SourcedURL] = [], companions: [Sourced<Companion>] = []
        var companionView: [SourcedURL] = [], companionClicks: [SourcedURL] = [], icons: [Sourced<Icon>] = []
        var verifications: [Sourced<Verification>] = [], viewable: [SourcedURL] = [], notViewable: [SourcedURL] = []
        var undetermined: [SourcedURL] = [], extensions: [Sourced<Extension>] = []
        var clickThrough: SourcedURL?

        var dropped: [SourcedURL] = [], relative: [SourcedURL] = []
        var document: String?
        /// `url` as it is requested, or nil (and noted) when it never is.
        func request(_ url: String, _ source: TrackingSource) -> String? {
            switch URLTemplate.dispatchForm(url, documentURL: document) {
            case let .request(form): return form
            case .blank: return nil
            case .notHTTP: dropped.append(SourcedURL(url: url, source: source))
            case .notAbsolute: relative.append(SourcedURL(url: url, source: source))
            }
            return nil
        }
        func dispatchable(_ events: [TrackingEvent], _ source: TrackingSource) -> [TrackingEvent] {
            events.compactMap { event in request(event.url, source).map { var e = event; e.url = $0; return e } }
        }
        func dispatchable(_ clicks: [ClickURL], _ source: TrackingSource) -> [ClickURL] {
            clicks.compactMap { click in request(click.url, source).map { var c = click; c.url = $0; return c } }
        }
        func sourced(_ urls: [String], _ source: TrackingSource) -> [SourcedURL] {
            urls.compactMap { request($0, source) }.map { SourcedURL(url: $0, source: source) }
        }
        /// A page a click opens: a protocol-relative one takes the document's scheme; anything else is as written
        /// (a landing page may be an app link).
        func page(_ url: String) -> String {
            let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("//"), case let .request(form) = URLTemplate.dispatchForm(trimmed, documentURL: document) { return form }
            return url
        }

        for link in links {
            let src = link.source
            document = link.document
            impressions += link.impressions.compactMap { impression in
                request(impression.url, src).map { SourcedURL(url: $0, id: impression.id, source: src) }
            }
            errors += sourced(link.errors, src)
            if let v = link.viewable {
                viewable += sourced(v.viewable, src)
                notViewable += sourced(v.notViewable, src)
                undetermined += sourced(v.viewUndetermined, src)
            }
            verifications += link.verifications.map { verification in
                var v = verification
                v.tracking = dispatchable(v.tracking, src)
                return Sourced(v, source: src)
            }
            extensions += link.extensions.map { Sourced($0, source: src) }
            // Only the first Linear of the InLine plays; a wrapper's Linear creatives all apply to it.
            let linears: [Linear] = src == .inline
                ? (inLine.linearCreative?.linear).map { [$0] } ?? []
                : link.creatives.compactMap(\.linear)
            for linear in linears {
                tracking += dispatchable(linear.tracking, src).map {
                    SourcedTracking(event: $0.event, offset: $0.offset, url: $0.url, source: src)
                }
                clickTracking += dispatchable(linear.videoClicks.clickTracking, src).map { SourcedURL(url: $0.url, id: $0.id, source: src) }
                customClicks += dispatchable(linear.videoClicks.customClicks, src).map { SourcedURL(url: $0.url, id: $0.id, source: src) }
                if let through = linear.videoClicks.clickThrough {
                    // Later links are closer to the InLine, so the last one seen wins.
                    clickThrough = SourcedURL(url: page(through.url), id: through.id, source: src)
                }
                icons += linear.icons.map { icon in
                    var i = icon
                    i.viewTracking = i.viewTracking.compactMap { request($0, src) }
                    i.clickThrough = i.clickThrough.map(page)
                    i.clickTracking = dispatchable(i.clickTracking, src)
                    return Sourced(i, source: src)
                }
            }
            for original in link.creatives.compactMap(\.companionAds).flatMap(\.companions) {
                var companion = original
                companion.tracking = dispatchable(companion.tracking, src)
                companion.clickTracking = dispatchable(companion.clickTracking, src)
                companion.clickThrough = companion.clickThrough.map(page)
                if companion.resources.isEmpty && src != .inline {
                    companionView += companion.tracking.filter { $0.event == .creativeView }
                        .map { SourcedURL(url: $0.url, source: src) }
                    companionClicks += companion.clickTracking.map { SourcedURL(url: $0.url, id: $0.id, source: src) }
                } else {
                    companions.append(Sourced(companion, source: src))
                }
            }
        }
        self.impressions = impressions
        self.errorURLs = errors
        self.linearTracking = tracking
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
        self.companions = companions
        self.companionRequirement = inLine.creatives.compactMap(\.companionAds).first?.required
        self.companionCreativeView = companionView
        self.companionClickTracking = companionClicks
        self.icons = icons
        self.verifications = verifications
        self.viewable = viewable
        self.notViewable = notViewable
        self.viewUndetermined = undetermined
        self.extensions = extensions
        self.undispatchableURLs = dropped
        self.relativeURLs = relative
        self.inLineResponseURL = nil
    }

    /// The InLine's Linear (the one to play), if any.
    public var linear: Linear? { linearCreative?.linear }

    /// Merged tracking URLs of one Linear event, outermost wrapper first, InLine last.
    public func tracking(for event: TrackingEventName) -> [SourcedTracking] {
        linearTracking.filter { $0.event == event }
    }

    /// The rewarded extension: the InLine's, else the nearest wrapper's.
    public var rewarded: RewardedExtension? {
        extensions.reversed().lazy.compactMap(\.value.rewarded).first
    }
}
