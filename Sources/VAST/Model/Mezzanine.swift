/// `<Mezzanine>` (VAST 4.0): the raw high-quality file for server-side transcoding. Never played directly.
public struct Mezzanine: Sendable, Hashable, Codable {
    /// `id` attribute.
    public var id: String?
    /// `delivery` attribute.
    public var delivery: String?
    /// `type` attribute (MIME).
    public var type: String?
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `codec` attribute.
    public var codec: String?
    /// `fileSize` in bytes.
    public var fileSize: Int?
    /// `mediaType` attribute.
    public var mediaType: String?
    /// The file URL.
    public var url: String

    public init(id: String? = nil, delivery: String? = nil, type: String? = nil, width: Int? = nil,
                height: Int? = nil, codec: String? = nil, fileSize: Int? = nil, mediaType: String? = nil,
                url: String) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.url = url
    }
}
