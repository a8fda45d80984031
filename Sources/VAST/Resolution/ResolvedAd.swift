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

        var merged = ChainMerge()
        for link in wrappers {
            merged.add(ChainMerge.Link(source: link.source, document: link.tagURL, impressions: link.wrapper.impressions, errors: link.wrapper.errorURLs,
                                       viewable: link.wrapper.viewableImpression, verifications: link.wrapper.verifications,
                                       creatives: link.wrapper.creatives, extensions: link.wrapper.extensions),
                       // A wrapper's Linear creatives all apply to the InLine's.
                       linears: link.wrapper.creatives.compactMap(\.linear))
        }
        merged.add(ChainMerge.Link(source: .inline, document: inLineDocumentURL, impressions: inLine.impressions, errors: inLine.errorURLs,
                                   viewable: inLine.viewableImpression, verifications: inLine.verifications, creatives: inLine.creatives,
                                   extensions: inLine.extensions),
                   // Only the first Linear of the InLine plays.
                   linears: (inLine.linearCreative?.linear).map { [$0] } ?? [])
        self.impressions = merged.impressions
        self.errorURLs = merged.errors
        self.linearTracking = merged.tracking
        self.clickThrough = merged.clickThrough
        self.clickTracking = merged.clickTracking
        self.customClicks = merged.customClicks
        self.companions = merged.companions
        self.companionRequirement = inLine.creatives.compactMap(\.companionAds).first?.required
        self.companionCreativeView = merged.companionView
        self.companionClickTracking = merged.companionClicks
        self.icons = merged.icons
        self.verifications = merged.verifications
        self.viewable = merged.viewable
        self.notViewable = merged.notViewable
        self.viewUndetermined = merged.undetermined
        self.extensions = merged.extensions
        self.undispatchableURLs = merged.dropped
        self.relativeURLs = merged.relative
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
