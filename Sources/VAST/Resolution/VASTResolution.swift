/// The outcome of resolving a VAST tag: resolved ads in play order, the one to play, failures with the Error URLs
/// to fire, the hop log and warnings.
public struct VASTResolution: Sendable, Hashable, Encodable {
    /// Resolved ads in play order: pod ads (top-level `sequence` order) first, then buffet ads, each expanded in
    /// the order its wrapper's response gives. Buffet ads are only resolved while no playable ad has been found
    /// (they are the fallback), so a tag whose pod plays lists no buffet ads. Unplayable ads are kept here too.
    public var ads: [ResolvedAd]
    /// Ads or chains that failed, in the order met: fetch and parse failures, broken ads (101), and the unplayable
    /// ads met before the default ad (201/200/403, see `ResolvedAd.playabilityError`). Fire each failure's
    /// `error.errorURLs` with its code.
    public var failures: [ResolutionFailure]
    /// Every request made (or refused), in order.
    public var hops: [ResolutionHop]
    /// Warnings of every response (prefixed with the hop), also of a response that failed to parse (its other
    /// faults), and resolution notes.
    public var warnings: [VASTWarning]
    /// The failure of the first request or of its parse (no ads at all), if any. A 303 here carries the root
    /// `<VAST><Error>` URLs.
    public var topLevelError: VASTError?
    /// Index in `ads` of the ad to play, chosen by the resolver (see `defaultAd`); `nil` when none can play.
    public var defaultAdIndex: Int?
    /// With `ResolverConfiguration.playsPods`, the ad pod to play, in play order, when there is one of at least two
    /// ads: the first response's pod ads by `sequence` (each ad its chain resolved to, or the chain's failure), or the
    /// pod a stand-alone wrapper with `allowMultipleAds` led to. Empty otherwise: `defaultAd` is the ad that plays.
    public var pod: [PodSlot] = []
    /// With a pod: the first response's stand-alone ads not resolved yet, in document order (substitutes for pod
    /// ads that fail; `VASTResolver.nextStandAloneAd(_:)`).
    public var standAloneLeft: [PendingStandAloneAd] = []
    /// What the requests so far spent of the resolution's budgets.
    public var budget = ResolutionBudget()

    public init(ads: [ResolvedAd] = [], failures: [ResolutionFailure] = [], hops: [ResolutionHop] = [],
                warnings: [VASTWarning] = [], topLevelError: VASTError? = nil, defaultAdIndex: Int? = nil) {
        self.ads = ads
        self.failures = failures
        self.hops = hops
        self.warnings = warnings
        self.topLevelError = topLevelError
        self.defaultAdIndex = defaultAdIndex
    }

    /// Pod ads, in sequence order.
    public var podAds: [ResolvedAd] { ads.filter(\.isPodAd) }
    /// Buffet (stand-alone) ads, in document order.
    public var buffetAds: [ResolvedAd] { ads.filter { !$0.isPodAd } }


    /// The ad to play: the first **playable** ad in play order (pod ads by sequence, then buffet ads), judged with
    /// `ResolverConfiguration.mediaCriteria` by `ResolvedAd.playabilityError(criteria:)`. A buffet ad is only
    /// chosen when no pod ad is playable and no failed wrapper met before it said `fallbackOnNoAd="false"`.
    public var defaultAd: ResolvedAd? {
        guard let defaultAdIndex, ads.indices.contains(defaultAdIndex) else { return nil }
        return ads[defaultAdIndex]
    }

    /// Why nothing can play, when `defaultAd` is `nil`: the top-level error, else the first failure, else 303.
    public var noAdError: VASTError? {
        guard defaultAd == nil else { return nil }
        if let topLevelError { return topLevelError }
        if let first = failures.first { return first.error }
        return VASTError(.noAdAfterWrapper, "no playable linear ad")
    }
}
