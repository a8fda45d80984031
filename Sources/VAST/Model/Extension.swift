/// One `<Extension>`, kept as raw XML, plus a typed view of the rewarded-video extension when present.
public struct Extension: Sendable, Hashable, Codable {
    /// `type` attribute.
    public var type: String?
    /// `name` attribute (used by the Adcash `RewardedVideo` extension instead of `type`).
    public var name: String?
    /// The element as raw XML (`<Extension …>…</Extension>`): its bytes exactly as in the response (attribute
    /// order, whitespace, comments, CDATA sections and the order of text and child elements kept), as UTF-8.
    public var rawXML: String
    /// The typed rewarded extension, when this extension is one (see `RewardedExtension`).
    public var rewarded: RewardedExtension?

    public init(type: String?, name: String?, rawXML: String, rewarded: RewardedExtension? = nil) {
        self.type = type
        self.name = name
        self.rawXML = rawXML
        self.rewarded = rewarded
    }
}
