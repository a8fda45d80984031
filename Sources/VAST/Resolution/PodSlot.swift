/// One place of an ad pod, in play order: the ad resolved for it, or why none can play there.
public struct PodSlot: Sendable, Hashable, Encodable {
    /// The ad's pod `sequence`: its top-level ad's, or the InLine's own for a pod reached through a wrapper.
    public var sequence: Int?
    /// Index in `VASTResolution.ads` of the ad resolved for this place; nil when its chain failed.
    public var adIndex: Int?
    /// Why the place's ad cannot play (its chain failed, or it has nothing playable); nil when it can. The same
    /// value is in `VASTResolution.failures`.
    public var failure: ResolutionFailure?

    public init(sequence: Int?, adIndex: Int?, failure: ResolutionFailure?) {
        self.sequence = sequence
        self.adIndex = adIndex
        self.failure = failure
    }
}

/// A stand-alone (buffet) ad of the first response not resolved yet: a pod's substitute, resolved only when a pod
/// ad fails (`VASTResolver.nextStandAloneAd(_:)`), as a player asks for a substitute only when it needs one.
public struct PendingStandAloneAd: Sendable, Hashable, Encodable {
    public var ad: Ad
    /// The URL of the response it came from (labels its sources; the base of its relative URLs).
    public var tagURL: String?
    public var responseURL: String?
}

/// What a resolution has spent of its budgets (`ResolverConfiguration.maxRequests`, `resolutionTimeout`), carried
/// to the substitutes resolved later.
public struct ResolutionBudget: Sendable, Hashable, Encodable {
    public var requests = 0
    public var spent: Duration = .zero
}
