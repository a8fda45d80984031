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

/// One elementary stream of a media file.
public struct StreamInfo: Sendable, Equatable, Codable {
    /// The stream's media type, as FFmpeg reports it.
    public enum Kind: String, Sendable, Codable { case video, audio, subtitle, data, attachment, unknown }

    /// The stream's index in the container.
    public var index: Int
    /// The stream's media type.
    public var type: Kind
    /// FFmpeg's codec name, e.g. `"h264"`, `"aac"`.
    public var codec: String
    /// Whether this build of FFmpeg has a decoder for it.
    public var decodable: Bool
    /// Picture width in pixels, video only.
    public var width: Int?
    /// Picture height in pixels, video only.
    public var height: Int?
    /// Average frame rate (frames per second), video only.
    public var fps: Double?
    /// Samples per second, audio only.
    public var sampleRate: Int?
    /// Audio channels, audio only.
    public var channels: Int?
    /// Bit rate in bits per second, when the container says.
    public var bitRate: Int?
    /// Stream duration in seconds, when the container says.
    public var duration: Double?
    /// Frames the container announces (`nb_frames`), when it says.
    public var declaredFrames: Int?
}

/// The ad's presentation timeline in the file's own timestamps (those `ffprobe -show_frames` prints as `pts_time`):
/// from its first shown picture (the first video frame; the first frame when there is no video) to the end of its
/// last frame, of any stream. Frame times (`MediaFrame.time`) and playheads count from `start`; sound before the first
/// picture plays as it is shown.
public struct PresentationTimeline: Sendable, Equatable, Codable {
    /// How the timeline's start and end were found.
    public enum Measure: String, Sendable, Codable {
        /// A demux pass read every packet's timestamps and duration at open (local files).
        case frames
        /// Each stream's start and duration as the container's index gives them (MP4 sample tables, edit lists
        /// applied): remote media, which is requested once.
        case streams
        /// Only the container's header duration, counted from 0 (a remote Matroska/WebM file).
        case container
    }

    /// The first shown picture's presentation time in the file.
    public var start: Duration
    /// Where the last frame's presentation ends in the file.
    public var end: Duration
    /// How `start` and `end` were found.
    public var measuredBy: Measure
    /// The longest video frame (audio frame without video) met: how far a header may be off without a warning.
    public var frame: Duration

    /// The wall time the demux pass took (`frames`), its cost at open; nil without a pass. Not compared by `==`:
    /// two measurements of one file are the same timeline.
    public var passTime: Duration?

    /// From the first shown picture to the end of the last frame (`end - start`, never negative).
    public var duration: Duration { max(.zero, end - start) }

    /// A timeline as measured.
    public init(start: Duration, end: Duration, measuredBy: Measure, frame: Duration, passTime: Duration? = nil) {
        self.start = start
        self.end = end
        self.measuredBy = measuredBy
        self.frame = frame
        self.passTime = passTime
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.measuredBy == rhs.measuredBy && lhs.frame == rhs.frame
    }
}
