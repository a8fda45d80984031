/// Safety limits of `SafeXMLReader`; the defaults are VAST's, where exceeding any of them is error 100.
public struct ParserLimits: Sendable, Hashable, Codable {
    /// Maximum input size in bytes. Default 2 MiB: real VAST responses are a few KiB (the largest IAB sample is
    /// under 7 KiB); 2 MiB leaves room for inlined HTML companions while bounding memory and time.
    public var maxBytes: Int
    /// Maximum element nesting depth. Default 64: the deepest VAST path (VAST/Ad/InLine/Creatives/Creative/Linear/
    /// Icons/Icon/IconClicks/IconClickFallbackImages/…) is about 12; 64 leaves room for extensions and stops
    /// deep-nesting attacks long before a stack overflows.
    public var maxDepth: Int
    /// Maximum number of elements. Default 200 000 (about 10 bytes per element of a 2 MiB input).
    public var maxElements: Int
    /// Maximum total character data (text and CDATA, after entity expansion). Default 4 Mi characters: twice the
    /// default byte cap, so legitimate character references fit but any entity amplification that libxml2 lets
    /// through is stopped.
    public var maxTextCharacters: Int
    /// Maximum attributes on one element. Default 256: the VAST element with the most attributes (`<MediaFile>`)
    /// defines 14; libxml2's duplicate-attribute check is quadratic in the attributes of one element (260 000
    /// attributes on one element of a 2 MiB tag cost 24 s of CPU), and 256² comparisons cost nothing.
    public var maxAttributesPerElement: Int
    /// Maximum attributes in the whole document. Default 100 000: the largest IAB sample has under 300; this
    /// bounds the attribute dictionaries Foundation builds while leaving room for extension-heavy tags.
    public var maxAttributes: Int

    public init(maxBytes: Int = 2 * 1024 * 1024, maxDepth: Int = 64, maxElements: Int = 200_000,
                maxTextCharacters: Int = 4 * 1024 * 1024, maxAttributesPerElement: Int = 256,
                maxAttributes: Int = 100_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxTextCharacters = maxTextCharacters
        self.maxAttributesPerElement = maxAttributesPerElement
        self.maxAttributes = maxAttributes
    }

    /// The defaults described on each property.
    public static let `default` = ParserLimits()
}
