/// `<Advertiser id="…">name</Advertiser>`.
public struct Advertiser: Sendable, Hashable, Codable {
    /// The advertiser's name (element text).
    public var name: String
    /// The `id` attribute (VAST 4.1).
    public var id: String?

    public init(name: String, id: String? = nil) {
        self.name = name
        self.id = id
    }
}
