/// Every frame of a media file as one full decode produced it (stream, kind, presentation time and end), with what
/// the container said and what the decode counted: decode once, play many. A fleet verifies its media with one real
/// FFmpeg decode and its sessions replay this timeline, so their cost is state machines and beacons, not decodes.
public struct MediaTimeline: Sendable {
    public let info: MediaInfo
    /// In presentation order across streams, as the decode returned them.
    public let frames: [MediaFrame]
    /// The decode's own statistics (frames per stream, decode errors, bytes).
    public let statistics: DecodeStatistics

    /// Decodes `source` to its end.
    /// - Throws: the media's error (truncated, corrupt…), as a session playing it would meet it.
    public init(decoding source: any MediaSource) throws(MediaError) {
        var frames: [MediaFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        self.init(info: source.info, frames: frames, statistics: source.statistics)
    }

    /// What a replay of every frame counts (`TimelineMediaSource.statistics` at the end): worked out once, not in
    /// every session that plays to the end.
    let replayed: DecodeStatistics

    public init(info: MediaInfo, frames: [MediaFrame], statistics: DecodeStatistics) {
        self.info = info
        self.frames = frames
        self.statistics = statistics
        replayed = Self.statistics(of: frames[...], streams: statistics.streams)
    }

    /// The statistics of replaying `frames`: frames per stream, first and last time, end.
    static func statistics(of frames: ArraySlice<MediaFrame>, streams: [DecodeStatistics.Stream]) -> DecodeStatistics {
        var statistics = DecodeStatistics(streams: streams.map { DecodeStatistics.Stream(index: $0.index, type: $0.type) })
        for frame in frames {
            guard let index = statistics.streams.firstIndex(where: { $0.index == frame.stream }) else { continue }
            statistics.streams[index].frames += 1
            let time = frame.time.seconds, end = frame.end.seconds
            statistics.streams[index].firstTime = statistics.streams[index].firstTime.map { min($0, time) } ?? time
            statistics.streams[index].lastTime = max(statistics.streams[index].lastTime ?? time, time)
            statistics.streams[index].end = max(statistics.streams[index].end ?? end, end)
        }
        return statistics
    }
}

/// A `MediaSource` that replays a `MediaTimeline`: the same frames at the same times, without decoding again. Its
/// statistics count the frames replayed so far, as a decode's count the frames decoded.
public final class TimelineMediaSource: MediaSource {
    public let timeline: MediaTimeline
    private var position = 0

    public init(_ timeline: MediaTimeline) { self.timeline = timeline }

    public var info: MediaInfo { timeline.info }

    public func nextFrame() throws(MediaError) -> MediaFrame? { nextReplayedFrame() }

    /// `nextFrame()` without a protocol call (it cannot fail): the engine's loop over a replay's frames.
    @inline(__always)
    func nextReplayedFrame() -> MediaFrame? {
        guard position < timeline.frames.count else { return nil }
        defer { position += 1 }
        return timeline.frames[position]
    }

    public var statistics: DecodeStatistics {
        position == timeline.frames.count
            ? timeline.replayed : MediaTimeline.statistics(of: timeline.frames[..<position], streams: timeline.statistics.streams)
    }
}
