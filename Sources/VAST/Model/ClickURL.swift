/// A click-related URL with its optional `id` attribute (`ClickThrough`, `ClickTracking`, `CustomClick`,
/// `CompanionClickTracking`, `IconClickTracking`).
public struct ClickURL: Sendable, Hashable, Codable {
    /// `id` attribute.
    public var id: String?
    /// The URL template.
    public var url: String

    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}
