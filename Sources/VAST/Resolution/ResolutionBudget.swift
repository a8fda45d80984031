/// What a resolution has spent of its budgets (`ResolverConfiguration.maxRequests`, `resolutionTimeout`), carried
/// to the substitutes resolved later.
public struct ResolutionBudget: Sendable, Hashable, Encodable {
    public var requests = 0
    public var spent: Duration = .zero
}
