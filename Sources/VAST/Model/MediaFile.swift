/// `<MediaFile>` with every attribute VAST 2.0–4.3 defines.
public struct MediaFile: Sendable, Hashable, Codable {
    /// `id` attribute.
    public var id: String?
    /// `delivery` attribute: `progressive` or `streaming` (required by the spec).
    public var delivery: String?
    /// `type` attribute: MIME type, e.g. `video/mp4` (required).
    public var type: String?
    /// `width` attribute in pixels (required).
    public var width: Int?
    /// `height` attribute in pixels (required).
    public var height: Int?
    /// `codec` attribute (RFC 6381 string or free text such as `H.264`).
    public var codec: String?
    /// `bitrate` attribute in kbps.
    public var bitrate: Int?
    /// `minBitrate` attribute in kbps (adaptive files).
    public var minBitrate: Int?
    /// `maxBitrate` attribute in kbps (adaptive files).
    public var maxBitrate: Int?
    /// `scalable` attribute.
    public var scalable: Bool?
    /// `maintainAspectRatio` attribute.
    public var maintainAspectRatio: Bool?
    /// `apiFramework` attribute (e.g. `VPAID`; deprecated for MediaFile in VAST 4.1).
    public var apiFramework: String?
    /// `fileSize` attribute in bytes (VAST 4.1).
    public var fileSize: Int?
    /// `mediaType` attribute (VAST 4.1), e.g. `2D`, `3D`, `360`.
    public var mediaType: String?
    /// The media URL.
    public var url: String

    public init(id: String? = nil, delivery: String? = nil, type: String? = nil, width: Int? = nil,
                height: Int? = nil, codec: String? = nil, bitrate: Int? = nil, minBitrate: Int? = nil,
                maxBitrate: Int? = nil, scalable: Bool? = nil, maintainAspectRatio: Bool? = nil,
                apiFramework: String? = nil, fileSize: Int? = nil, mediaType: String? = nil, url: String) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.apiFramework = apiFramework
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.url = url
    }

    /// The bitrate used for selection, in kbps: `bitrate`, else the average of `minBitrate` and `maxBitrate`, else
    /// whichever of the two is present, else `nil`.
    public var effectiveBitrate: Int? {
        if let bitrate { return bitrate }
        switch (minBitrate, maxBitrate) {
        case let (lo?, hi?): return lo / 2 + hi / 2 + (lo % 2 + hi % 2) / 2  // (lo + hi) / 2 without overflow
        case let (lo?, nil): return lo
        case let (nil, hi?): return hi
        default: return nil
        }
    }

    /// `width × height` in pixels, when both are known; `Int.max` when the product would overflow (a hostile tag can
    /// write any number, and the parser's clamping does not cover values set in code).
    public var area: Int? {
        guard let width, let height else { return nil }
        return MediaFile.saturatingProduct(width, height)
    }

    /// `a × b`, or `Int.max`/`Int.min` (by the sign the product would have) instead of overflowing.
    public static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        guard overflow else { return product }
        return (a < 0) == (b < 0) ? Int.max : Int.min
    }
}
