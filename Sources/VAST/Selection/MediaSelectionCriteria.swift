/// What the player wants from `MediaFileSelector`.
public struct MediaSelectionCriteria: Sendable, Hashable, Codable {
    /// Target bandwidth in kbps: choose the highest bitrate not above it, else the lowest.
    public var targetBitrateKbps: Int?
    /// Screen width in pixels (with `screenHeight`): choose the largest area not above the screen's, else the
    /// smallest.
    public var screenWidth: Int?
    /// Screen height in pixels.
    public var screenHeight: Int?
    /// `--media-file ID`: a MediaFile `id`, or else a 1-based index into all MediaFiles in document order.
    /// Overrides every other rule (even playability: it is a debugging tool).
    public var forcedFile: String?
    /// The Adcash rule (seed 000, Table 5): the quality to pick. Overrides bandwidth and screen size.
    public var adcashQuality: AdcashQuality?
    /// `--prefer-streaming`: with both progressive files and HLS playlists playable, choose among the playlists
    /// (nil or false: among the progressive files, vplay's default).
    public var preferStreaming: Bool?

    public init(targetBitrateKbps: Int? = nil, screenWidth: Int? = nil, screenHeight: Int? = nil,
                forcedFile: String? = nil, adcashQuality: AdcashQuality? = nil) {
        self.targetBitrateKbps = targetBitrateKbps
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.forcedFile = forcedFile
        self.adcashQuality = adcashQuality
    }
}
