/// Every frame of a media file as one full decode produced it (stream, kind, presentation time and end), with what
/// the container said and what the decode counted: decode once, play many. A fleet verifies its media with one real
/// FFmpeg decode and its sessions replay this timeline, so their cost is state machines and beacons, not decodes.
///
/// Its parts are kept behind one reference (`Parts`): a timeline is never changed, and a fleet's sessions pass it
/// around, each copy of its arrays and strings a reference count apiece.
public struct MediaTimeline: Sendable {
    /// What the container said when the media was opened.
    public var info: MediaInfo { parts.info }
    /// In presentation order across streams, as the decode returned them.
    public var frames: [MediaFrame] { parts.frames }
    /// The decode's own statistics (frames per stream, decode errors, bytes).
    public var statistics: DecodeStatistics { parts.statistics }

    private final class Parts: Sendable {
        let info: MediaInfo
        let frames: [MediaFrame]
        let statistics: DecodeStatistics
        let replays: [DecodeStatistics.Stream]
        let runs: RunIndex

        init(info: MediaInfo, frames: [MediaFrame], statistics: DecodeStatistics, replays: [DecodeStatistics.Stream], runs: RunIndex) {
            (self.info, self.frames, self.statistics, self.replays, self.runs) = (info, frames, statistics, replays, runs)
        }
    }

    private let parts: Parts

    /// Decodes `source` to its end.
    /// - Throws: the media's error (truncated, corrupt…), as a session playing it would meet it.
    public init(decoding source: any MediaSource) throws(MediaError) {
        var frames: [MediaFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        self.init(info: source.info, frames: frames, statistics: source.statistics)
    }

    /// What a replay of the first `p` frames counts, for every `p` from 0 to all of them: the streams of `p` at
    /// `p * statistics.streams.count`. Worked out once, not in every session that stops partway (a skip, a close).
    private var replays: [DecodeStatistics.Stream] { parts.replays }

    /// Range maxima of the frames' times and ends, and video frames counted, for presenting a run of frames at once
    /// (`firstStop(from:where:)`, `run(_:)`). Both are worked out once, in O(n log n) time and memory for n frames.
    private var runs: RunIndex { parts.runs }

    /// A timeline of `frames` (in presentation order across streams) with the decode's `info` and `statistics`.
    public init(info: MediaInfo, frames: [MediaFrame], statistics: DecodeStatistics) {
        parts = Parts(info: info, frames: frames, statistics: statistics,
                      replays: Self.statistics(ofEveryPrefixOf: frames, streams: statistics.streams), runs: RunIndex(frames))
    }

    /// What presenting `frames[range]` adds up to: how many video frames, the latest time and the latest end.
    struct Run {
        var videoFrames: Int
        var latestTime: Duration
        var latestEnd: Duration
    }

    /// The first index from `start` on whose frame `stops` (a test that, once true for a time, is true for every
    /// later time), or an index before it: frames are in decode order, not sorted by time, and the search reads the
    /// latest time up to each index. Every frame from `start` up to the index returned passes.
    func firstStop(from start: Int, where stops: (Duration) -> Bool) -> Int {
        // `runs.latestTime` never decreases, so `stops` of it is false, then true: the first true is searched.
        let latestTime = parts.runs.latestTime
        var low = start, high = latestTime.count
        while low < high {
            let middle = (low + high) / 2
            if stops(latestTime[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// `frames[range]` added up, in constant time.
    func run(_ range: Range<Int>) -> Run {
        Run(videoFrames: runs.videoBefore[range.upperBound] - runs.videoBefore[range.lowerBound],
            latestTime: runs.maximum(of: runs.time, range), latestEnd: runs.maximum(of: runs.end, range))
    }

    /// Sparse tables (each level `l` the maximum over `2^l` frames from each index) of the times and the ends, the
    /// latest time up to each frame, and the video frames before each index.
    private struct RunIndex: Sendable {
        var time: [[Duration]]
        var end: [[Duration]]
        var latestTime: [Duration]
        var videoBefore: [Int]

        init(_ frames: [MediaFrame]) {
            time = [frames.map(\.time)]
            end = [frames.map(\.end)]
            var width = 1
            while 2 * width <= frames.count {
                let (times, ends) = (time.last!, end.last!)
                time.append((0...(frames.count - 2 * width)).map { max(times[$0], times[$0 + width]) })
                end.append((0...(frames.count - 2 * width)).map { max(ends[$0], ends[$0 + width]) })
                width *= 2
            }
            var latest = frames.first?.time ?? .zero
            latestTime = frames.map { frame in
                latest = max(latest, frame.time)
                return latest
            }
            var videos = 0
            videoBefore = [0] + frames.map { frame in
                if frame.type == .video { videos += 1 }
                return videos
            }
        }

        /// The maximum of `table`'s values over `range` (not empty).
        func maximum(of table: [[Duration]], _ range: Range<Int>) -> Duration {
            let level = Int.bitWidth - 1 - range.count.leadingZeroBitCount
            return max(table[level][range.lowerBound], table[level][range.upperBound - (1 << level)])
        }
    }

    /// The statistics of replaying the first `count` frames: frames per stream, first and last time, end.
    func replayed(_ count: Int) -> DecodeStatistics {
        let width = statistics.streams.count
        return DecodeStatistics(streams: Array(replays[count * width ..< (count + 1) * width]))
    }

    /// The statistics of replaying each prefix of `frames`, the empty one first, one after another (`replays`).
    private static func statistics(ofEveryPrefixOf frames: [MediaFrame], streams: [DecodeStatistics.Stream]) -> [DecodeStatistics.Stream] {
        var current = streams.map { DecodeStatistics.Stream(index: $0.index, type: $0.type) }
        var all = current
        all.reserveCapacity((frames.count + 1) * current.count)
        for frame in frames {
            if let index = current.firstIndex(where: { $0.index == frame.stream }) {
                current[index].frames += 1
                let time = frame.time.seconds, end = frame.end.seconds
                current[index].firstTime = current[index].firstTime.map { min($0, time) } ?? time
                current[index].lastTime = max(current[index].lastTime ?? time, time)
                current[index].end = max(current[index].end ?? end, end)
            }
            all += current
        }
        return all
    }
}

