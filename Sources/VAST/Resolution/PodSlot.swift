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

