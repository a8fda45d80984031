import Primitives

/// What a media file holds, as FFmpeg reads it from the container (before decoding).
public struct MediaInfo: Sendable, Equatable, Codable {
    /// The file path or URL that was opened.
    public var location: String
    /// FFmpeg's demuxer name, e.g. `"mov,mp4,m4a,3gp,3g2,mj2"`.
    public var format: String
    /// The ad's duration in seconds: its presentation timeline's (`timeline`), from its first shown picture to the
    /// end of its last frame. Quartiles and progress offsets are measured on it.
    public var duration: Double
    /// The same duration, exactly.
    public var exactDuration: Duration { timeline.duration }
    /// Where the ad's pictures and sound are in the file's own timestamps, and how that was measured.
    public var timeline: PresentationTimeline
    /// The duration the container's header declares (FFmpeg's `AVFormatContext.duration`: MP4's `mvhd`, Matroska's
    /// segment duration); nil when it gives none (a WebM written live). Not used for timing: headers can lie.
    public var declaredDuration: Duration?
    /// Overall bit rate in bits per second; nil when unknown.
    public var bitRate: Int?
    /// File size in bytes when known.
    public var size: Int64?
    /// Every stream of the container, in index order.
    public var streams: [StreamInfo]
    /// For an HLS master playlist: which variant plays and why (`"variant 2 of 3: …"`); nil otherwise.
    public var variant: String? = nil

    /// The warning for a header whose declared duration disagrees with the frames' by more than a frame, else nil.
    /// A header counting from 0 to the end (MP4 with an empty edit, B-frames without an edit list) agrees.
    public var durationMismatch: String? {
        guard let declared = declaredDuration, timeline.measuredBy != .container else { return nil }
        let frame = max(timeline.frame, .microseconds(1))
        func apart(_ a: Duration, _ b: Duration) -> Duration { a > b ? a - b : b - a }
        guard apart(declared, timeline.duration) > frame, apart(declared, timeline.end) > frame else { return nil }
        return "the media's header declares a duration of \(declared.millisecondText) s but its frames last "
            + "\(timeline.duration.millisecondText) s; quartiles use \(timeline.duration.millisecondText) s"
    }

    /// The first video stream, if any.
    public var video: StreamInfo? { streams.first { $0.type == .video } }
    /// The first audio stream, if any.
    public var audio: StreamInfo? { streams.first { $0.type == .audio } }
}

