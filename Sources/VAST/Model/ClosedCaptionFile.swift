/// `<ClosedCaptionFile>` (VAST 4.1). Applies to all MediaFiles.
public struct ClosedCaptionFile: Sendable, Hashable, Codable {
    /// `type` attribute: `text/srt`, `text/vtt`, `application/ttml+xml`.
    public var type: String?
    /// `language` attribute (ISO 639-1, optionally with a locale).
    public var language: String?
    /// The file URL.
    public var url: String

    public init(type: String?, language: String?, url: String) {
        self.type = type
        self.language = language
        self.url = url
    }
}
