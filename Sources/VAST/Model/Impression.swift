/// `<Impression id="…">url</Impression>`.
public struct Impression: Sendable, Hashable, Codable {
    /// `id` attribute.
    public var id: String?
    /// The URL template as written (may contain macros such as `[CACHEBUSTING]`).
    public var url: String

    public init(id: String?, url: String) {
        self.id = id
        self.url = url
    }

    /// Whether the URL should be requested: not empty and not `about:blank` (the spec's "do not dispatch").
    public var isFireable: Bool { URLTemplate.isFireable(url) }
}
