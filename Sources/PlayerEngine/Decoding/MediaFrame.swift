/// One decoded frame as the playback engine sees it: when it is presented and for how long.
/// The pixels and samples themselves are released as soon as the frame is decoded: vplay is headless.
public struct MediaFrame: Sendable, Equatable {
    /// Index of the stream in the container.
    public var stream: Int
    /// The kind of stream it belongs to.
    public var type: StreamInfo.Kind
    /// Presentation time from the ad's first shown picture (`MediaInfo.timeline.start` subtracted): 0 for that
    /// picture, negative for sound before it.
    public var time: Duration
    /// Presentation end: `time` plus the frame's duration, computed in the stream's own ticks so that the last
    /// frame of a 10 s clip ends at exactly 10 s.
    public var end: Duration
    /// Whether the decoder flagged the frame as a key frame (video).
    public var isKeyFrame: Bool

    /// A frame of stream `stream` presented from `time` to `end`.
    public init(stream: Int, type: StreamInfo.Kind, time: Duration, end: Duration, isKeyFrame: Bool = false) {
        self.stream = stream
        self.type = type
        self.time = time
        self.end = end
        self.isKeyFrame = isKeyFrame
    }
}

