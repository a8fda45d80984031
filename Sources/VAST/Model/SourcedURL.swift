/// A URL template with the place in the wrapper chain it came from.
public struct SourcedURL: Sendable, Hashable, Codable {
    /// The URL template as written.
    public var url: String
    /// The `id` attribute, when the element has one (Impression, ClickTracking…).
    public var id: String?
    /// Where it came from.
    public var source: TrackingSource

    public init(url: String, id: String? = nil, source: TrackingSource) {
        self.url = url
        self.id = id
        self.source = source
    }
}
