/// A `MediaSource` that replays a `MediaTimeline`: the same frames at the same times, without decoding again. Its
/// statistics count the frames replayed so far, as a decode's count the frames decoded.
public final class TimelineMediaSource: MediaSource {
    /// The timeline replayed.
    public let timeline: MediaTimeline
    private var position = 0

    /// A source that replays `timeline` from its first frame.
    public init(_ timeline: MediaTimeline) { self.timeline = timeline }

    /// The timeline's media info.
    public var info: MediaInfo { timeline.info }

    /// Itself: the engine's fast path over a replay's frames.
    public var replay: TimelineMediaSource? { self }

    /// The next frame of the timeline, or nil after the last; never throws.
    public func nextFrame() throws(MediaError) -> MediaFrame? { nextReplayedFrame() }

    /// `nextFrame()` without a protocol call (it cannot fail): the engine's loop over a replay's frames.
    @inline(__always)
    func nextReplayedFrame() -> MediaFrame? {
        guard position < timeline.frames.count else { return nil }
        defer { position += 1 }
        return timeline.frames[position]
    }

    /// What a decode would have counted after the frames replayed so far.
    public var statistics: DecodeStatistics { timeline.replayed(position) }

    /// The index of the frame `nextReplayedFrame()` returned last.
    var lastReturned: Int { position - 1 }

    /// Goes on from frame `index`: returns it (nil past the end) as `nextReplayedFrame()` does.
    func resume(at index: Int) -> MediaFrame? {
        position = index
        return nextReplayedFrame()
    }
}
