/// `<AdSystem version="…">name</AdSystem>`: the ad server that returned the ad.
public struct AdSystem: Sendable, Hashable, Codable {
    /// The element text, e.g. `iabtechlab`.
    public var name: String
    /// The `version` attribute.
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}
