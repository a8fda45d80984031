/// The outcome of resolving a VAST tag: playable ads in play order, failures with the Error URLs to fire, the hop
/// log and warnings.
public struct VASTResolution: Sendable, Hashable, Encodable {
    /// Resolved ads in play order: pod ads (top-level `sequence` order) first, then buffet ads, each expanded in
    /// the order its wrapper's response gives.
    public var ads: [ResolvedAd]
    /// Ads or chains that failed, in the order met. Fire each failure's `error.errorURLs` with its code.
    public var failures: [ResolutionFailure]
    /// Every request made (or refused), in order.
    public var hops: [ResolutionHop]
    /// Warnings of every response (prefixed with the hop) and resolution notes.
    public var warnings: [VASTWarning]
    /// The failure of the first request or of its parse (no ads at all), if any. A 303 here carries the root
    /// `<VAST><Error>` URLs.
    public var topLevelError: VASTError?

    public init(ads: [ResolvedAd] = [], failures: [ResolutionFailure] = [], hops: [ResolutionHop] = [],
                warnings: [VASTWarning] = [], topLevelError: VASTError? = nil) {
        self.ads = ads
        self.failures = failures
        self.hops = hops
        self.warnings = warnings
        self.topLevelError = topLevelError
    }

    /// Pod ads, in sequence order.
    public var podAds: [ResolvedAd] { ads.filter(\.isPodAd) }
    /// Buffet (stand-alone) ads, in document order.
    public var buffetAds: [ResolvedAd] { ads.filter { !$0.isPodAd } }

    /// Whether buffet ads may stand in when no pod ad plays: false only when a failed wrapper said
    /// `fallbackOnNoAd="false"` and there were pod ads to replace.
    public var buffetFallbackAllowed: Bool {
        !failures.contains { $0.fallbackOnNoAd == false && $0.sequence != nil }
    }

    /// The ad to play by default: the first playable Linear pod ad; else (if the pod is empty or failed, and
    /// fallback is allowed) the first playable Linear buffet ad.
    public var defaultAd: ResolvedAd? {
        if let pod = podAds.first(where: \.isPlayableLinear) { return pod }
        let hadPod = podAds.isEmpty == false || failures.contains { $0.sequence != nil }
        if hadPod && !buffetFallbackAllowed { return nil }
        return buffetAds.first(where: \.isPlayableLinear)
    }

    /// Why nothing can play, when `defaultAd` is `nil`: the top-level error, else the first failure, else 303.
    public var noAdError: VASTError? {
        guard defaultAd == nil else { return nil }
        if let topLevelError { return topLevelError }
        if let first = failures.first { return first.error }
        return VASTError(.noAdAfterWrapper, "no playable linear ad")
    }
}
