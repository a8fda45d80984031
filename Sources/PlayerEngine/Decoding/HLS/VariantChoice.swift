/// Which variant to play (an index into the master playlist's variants, in order) and why, for `inspect`.
public struct VariantChoice: Sendable, Equatable {
    /// The variant's index among the master playlist's variants, in order.
    public var index: Int
    /// Why it was chosen, for humans.
    public var reason: String

    /// A choice of variant `index` for `reason`.
    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
