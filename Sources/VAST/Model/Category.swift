/// `<Category authority="…">code</Category>` (also used for `<BlockedAdCategories>`).
public struct Category: Sendable, Hashable, Codable {
    /// The category code, e.g. `IAB1-6`. May be empty (the IAB samples contain `<Category authority="foo" />`).
    public var code: String
    /// `authority` attribute: URL of the taxonomy.
    public var authority: String?

    public init(code: String, authority: String?) {
        self.code = code
        self.authority = authority
    }
}
