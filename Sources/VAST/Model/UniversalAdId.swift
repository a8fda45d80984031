/// `<UniversalAdId idRegistry="Ad-ID">8465</UniversalAdId>` (VAST 4.0; VAST 4.0 also had an `idValue` attribute).
public struct UniversalAdId: Sendable, Hashable, Codable {
    /// `idRegistry` attribute, e.g. `Ad-ID`, `clearcast.co.uk`, or `unknown`.
    public var idRegistry: String?
    /// The identifier: the element text, or the VAST 4.0 `idValue` attribute when the text is empty.
    public var value: String

    public init(idRegistry: String?, value: String) {
        self.idRegistry = idRegistry
        self.value = value
    }
}
