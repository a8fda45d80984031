/// An InLine ad with its wrapper chain merged in.
///
/// **Order of merged lists** (deterministic): outermost wrapper first, then each inner wrapper, the InLine last;
/// within one ad, document order. This holds for impressions and error URLs (the spec says to fire them together;
/// outermost-first is also what vast-client-js does) and, for one rule everywhere, for tracking, click tracking,
/// custom clicks, icons, verifications, viewable-impression URLs and extensions too. Nothing is de-duplicated: the
/// same URL in two wrappers is two beacons, as the spec intends. `about:blank` and empty impressions are dropped.
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

        for link in links {
            let src = link.source
            impressions += link.impressions.filter(\.isFireable).map { SourcedURL(url: $0.url, id: $0.id, source: src) }
            errors += link.errors.map { SourcedURL(url: $0, source: src) }
            if let v = link.viewable {
                viewable += v.viewable.map { SourcedURL(url: $0, source: src) }
                notViewable += v.notViewable.map { SourcedURL(url: $0, source: src) }
                undetermined += v.viewUndetermined.map { SourcedURL(url: $0, source: src) }
            }
            verifications += link.verifications.map { Sourced($0, source: src) }
            extensions += link.extensions.map { Sourced($0, source: src) }
            // Only the first Linear of the InLine plays; a wrapper's Linear creatives all apply to it.
            let linears: [Linear] = src == .inline
                ? (inLine.linearCreative?.linear).map { [$0] } ?? []
                : link.creatives.compactMap(\.linear)
            for linear in linears {
                tracking += linear.tracking.map {
                    SourcedTracking(event: $0.event, offset: $0.offset, url: $0.url, source: src)
                }
                clickTracking += linear.videoClicks.clickTracking.map { SourcedURL(url: $0.url, id: $0.id, source: src) }
                customClicks += linear.videoClicks.customClicks.map { SourcedURL(url: $0.url, id: $0.id, source: src) }
                if let through = linear.videoClicks.clickThrough {
                    // Later links are closer to the InLine, so the last one seen wins.
                    clickThrough = SourcedURL(url: through.url, id: through.id, source: src)
                }
                icons += linear.icons.map { Sourced($0, source: src) }
            }
            for companion in link.creatives.compactMap(\.companionAds).flatMap(\.companions) {
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
    }

    /// The InLine's Linear (the one to play), if any.
    public var linear: Linear? { linearCreative?.linear }

    /// Whether vplay can play this ad: it has a Linear with at least one MediaFile. (A NonLinear-only ad is parsed
    /// but not playable.) Whether one of the files is playable is `MediaFileSelector`'s question.
    public var isPlayableLinear: Bool { !(linear?.mediaFiles.isEmpty ?? true) }

    /// Merged tracking URLs of one Linear event, outermost wrapper first, InLine last.
    public func tracking(for event: TrackingEventName) -> [SourcedTracking] {
        linearTracking.filter { $0.event == event }
    }

    /// The rewarded extension: the InLine's, else the nearest wrapper's.
    public var rewarded: RewardedExtension? {
        extensions.reversed().lazy.compactMap(\.value.rewarded).first
    }
}
