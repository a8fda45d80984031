/// A stand-alone (buffet) ad of the first response not resolved yet: a pod's substitute, resolved only when a pod
/// ad fails (`VASTResolver.nextStandAloneAd(_:)`), as a player asks for a substitute only when it needs one.
public struct PendingStandAloneAd: Sendable, Hashable, Encodable {
    public var ad: Ad
    /// The URL of the response it came from (labels its sources; the base of its relative URLs).
    public var tagURL: String?
    public var responseURL: String?
}
