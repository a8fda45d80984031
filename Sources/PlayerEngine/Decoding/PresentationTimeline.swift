import Primitives

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
