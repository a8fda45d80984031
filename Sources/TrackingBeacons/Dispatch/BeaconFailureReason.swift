import Networking

/// What broke a body's read (`BeaconFailure.bodyFailed`), in the words of the failure it was.
public struct BeaconFailureReason: Sendable, Equatable, Hashable {
    /// The failure's `description`.
    public let text: String
    /// The reason of `failure`, in its words.
    public init(_ failure: BeaconFailure) { text = failure.description }
}
