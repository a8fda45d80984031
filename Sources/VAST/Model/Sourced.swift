/// Any merged value (a companion, an icon, a verification, an extension) with where it came from.
public struct Sourced<Value: Sendable & Hashable & Encodable>: Sendable, Hashable, Encodable {
    /// The value.
    public var value: Value
    /// Where it came from.
    public var source: TrackingSource

    public init(_ value: Value, source: TrackingSource) {
        self.value = value
        self.source = source
    }
}
