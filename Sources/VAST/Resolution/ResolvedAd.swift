/// An InLine ad with its wrapper chain merged in.
///
/// **Order of merged lists** (deterministic): outermost wrapper first, then each inner wrapper, the InLine last;
/// within one ad, document order. This holds for impressions and error URLs (the spec says to fire them together;
/// outermost-first is also what vast-client-js does) and, for one rule everywhere, for tracking, click tracking,
/// custom clicks, icons, verifications, viewable-impression URLs and extensions too. Nothing is de-duplicated: the
/// same URL in two wrappers is two beacons, as the spec intends.
///
/// Only dispatchable URLs are kept in every list a session fires (impressions, errors, tracking of the Linear, the
/// companions, the icons and the verifications, click tracking, viewable impressions): empty URLs, `about:blank`
/// and any scheme other than http(s) (`file:`, `javascript:`, `data:`…) are dropped here, for every event, and listed
/// in `undispatchableURLs` so the resolver can warn once (see `URLTemplate.isDispatchable`).
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
    /// Tracking, error and click-tracking URLs dropped because they are not dispatchable (other than empty ones
    /// and `about:blank`, the spec's "do not dispatch"), in merge order.
    public var undispatchableURLs: [SourcedURL]
    /// The URL the InLine's response finally came from (after redirects), when the resolver knows it: the base for
    /// relative MediaFile URLs.
    public var inLineResponseURL: String?

    /// Merges `inLineAd` with `wrappers` (outermost first).
    public init(inLineAd: Ad, inLine: InLine, wrappers: [WrapperLink], topLevelSequence: Int?, isPodAd: Bool) {
        self.ad = inLineAd
        self.inLine = inLine
        self.wrappers = wrappers
        self.sequence = topLevelSequence ?? inLineAd.sequence
        self.isPodAd = isPodAd
        self.linearCreative = inLine.linearCreative

        let links: [(source: TrackingSource, impressions: [Impression], errors: [String],
                     viewable: ViewableImpression?, verifications: [Verification], creatives: [Creative],
                     extensions: [Extension])] =
            wrappers.map { ($0.source, $0.wrapper.impressions, $0.wrapper.errorURLs, $0.wrapper.viewableImpression,
                            $0.wrapper.verifications, $0.wrapper.creatives, $0.wrapper.extensions) }
            + [(.inline, inLine.impressions, inLine.errorURLs, inLine.viewableImpression, inLine.verifications,
                inLine.creatives, inLine.extensions)]

        var impressions: [SourcedURL] = [], errors: [SourcedURL] = [], tracking: [SourcedTracking] = []
        var clickTracking: [SourcedURL] = [], customClicks: [SourcedURL] = [], companions: [Sourced<Companion>] = []
        var companionView: [SourcedURL] = [], companionClicks: [SourcedURL] = [], icons: [Sourced<Icon>] = []
        var verifications: [Sourced<Verification>] = [], viewable: [SourcedURL] = [], notViewable: [SourcedURL] = []
        var undetermined: [SourcedURL] = [], extensions: [Sourced<Extension>] = []
        var clickThrough: SourcedURL?

        var dropped: [SourcedURL] = []
        func keep(_ url: String, _ source: TrackingSource) -> Bool {
            if URLTemplate.isDispatchable(url) { return true }
            if URLTemplate.isFireable(url) { dropped.append(SourcedURL(url: url, source: source)) }
            return false
        }
        func dispatchable(_ events: [TrackingEvent], _ source: TrackingSource) -> [TrackingEvent] {
            events.filter { keep($0.url, source) }
        }
        func dispatchable(_ clicks: [ClickURL], _ source: TrackingSource) -> [ClickURL] {
            clicks.filter { keep($0.url, source) }
        }
        func sourced(_ urls: [String], _ source: TrackingSource) -> [SourcedURL] {
            urls.filter { keep($0, source) }.map { SourcedURL(url: $0, source: source) }
        }

        for link in links {
            let src = link.source
            impressions += link.impressions.filter { keep($0.url, src) }.map { SourcedURL(url: $0.url, id: $0.id, source: src) }
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
                    clickThrough = SourcedURL(url: through.url, id: through.id, source: src)
                }
                icons += linear.icons.map { icon in
                    var i = icon
                    i.viewTracking = i.viewTracking.filter { keep($0, src) }
                    i.clickTracking = dispatchable(i.clickTracking, src)
                    return Sourced(i, source: src)
                }
            }
            for original in link.creatives.compactMap(\.companionAds).flatMap(\.companions) {
                var companion = original
                companion.tracking = dispatchable(companion.tracking, src)
                companion.clickTracking = dispatchable(companion.clickTracking, src)
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
