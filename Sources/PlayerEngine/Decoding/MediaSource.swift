import Networking
/// Where the playback engine gets its frames: a real FFmpeg decode (`FFmpegMediaSource`) or, in unit tests of pure
/// timing logic, a scripted list of frames. Frames come in presentation order across all streams.
public protocol MediaSource: AnyObject {
    /// What the container says before decoding.
    var info: MediaInfo { get }
    /// The next frame in presentation order, or nil after the last one.
    /// Throws when the media turns out to be unplayable (e.g. `MediaError.truncated` once the data runs out early).
    func nextFrame() throws(MediaError) -> MediaFrame?
    /// Counts so far: frames per stream, decode errors.
    var statistics: DecodeStatistics { get }
    /// How many times a read has waited for bytes a simulated network had not delivered yet (`ThrottledReader`): a
    /// frame late because of such a wait is a network stall, one late for any other reason (a busy CPU) is not.
    var networkWaits: Int { get }
    /// Where the media's bytes are, when the open mapped them (`MediaOpenOptions.mapDelivery`); nil otherwise.
    var deliveryMap: DeliveryMap? { get }
    /// The source as a replay of a decoded timeline, when it is one: the engine then takes runs of frames straight
    /// from the timeline instead of one `nextFrame()` call each. nil for a source that decodes.
    var replay: TimelineMediaSource? { get }
    /// What creative QA measured of the frames decoded so far, when the source measures it
    /// (`MediaOpenOptions.analyzeCreative`).
    var creativeReport: CreativeReport? { get }
}

extension MediaSource {
    /// 0: a source that reads through no simulated network never waits.
    public var networkWaits: Int { 0 }
    /// nil: no delivery map.
    public var deliveryMap: DeliveryMap? { nil }
    /// nil: a source that decodes.
    public var replay: TimelineMediaSource? { nil }
    /// nil: a source that measures nothing of the creative.
    public var creativeReport: CreativeReport? { nil }
}

/// How an `FFmpegMediaSource` opens and decodes.
/// Where `url`'s redirects end (nil when it does not redirect), within `timeout`; blocks its thread. Throws the
/// media error for a redirect that must not be followed.
public typealias MediaRedirectResolver = @Sendable (_ url: String, _ timeout: Duration) throws(MediaError) -> String?

