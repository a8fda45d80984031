/// One variant of an HLS master playlist (`#EXT-X-STREAM-INF`), as a player chooses among them.
public struct StreamVariant: Sendable, Equatable {
    /// The variant playlist's URL, resolved against the master playlist's.
    public var url: String
    /// `BANDWIDTH` in bits per second (the peak rate), nil when absent.
    public var bandwidth: Int?
    /// `AVERAGE-BANDWIDTH` in bits per second, nil when absent.
    public var averageBandwidth: Int?
    /// `RESOLUTION` width and height in pixels, nil when absent.
    public var width: Int?
    /// See `width`.
    public var height: Int?

    /// A variant at `url` with the attributes its `#EXT-X-STREAM-INF` gives.
    public init(url: String, bandwidth: Int? = nil, averageBandwidth: Int? = nil, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.width = width
        self.height = height
    }
}

/// Chooses a variant of an HLS master playlist: the session applies the MediaFile rule (`--bandwidth`, `--screen`).
public typealias VariantChooser = @Sendable (_ variants: [StreamVariant]) -> VariantChoice
