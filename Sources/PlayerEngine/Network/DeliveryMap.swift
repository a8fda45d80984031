/// Where a media file's bytes are, on its presentation timeline: how much of the file (a prefix, as a progressive
/// download delivers it) must have arrived before the media up to a time can be played.
///
/// Built from a demux pass over the file's packets (their byte positions and presentation times) and, for MP4, the
/// place of its `moov` box: nothing plays before the header has arrived, so a `moov` after the media data means
/// nearly the whole file before the first frame.
public struct DeliveryMap: Sendable, Equatable {
    /// The file's size in bytes (the last byte a download delivers).
    public var size: Int64
    /// Bytes needed before anything can be demuxed: the end of the header (the `moov` box of an MP4; the first
    /// packet's position otherwise).
    public var headerBytes: Int64
    /// Whether the MP4 header comes after the media data (not "fast start").
    public var headerAtEnd: Bool
    /// Presentation times (from the first shown picture, as frames have them), ascending.
    private var times: [Duration]
    /// For each time: the bytes needed to present everything up to it (the furthest packet end at or before it, and
    /// the header).
    private var needed: [Int64]

    /// - Parameter packets: each packet's presentation time and the end of its bytes (position + size), any order.
    public init(size: Int64, headerBytes: Int64, headerAtEnd: Bool, packets: [(time: Duration, end: Int64)]) {
        self.size = size
        self.headerBytes = headerBytes
        self.headerAtEnd = headerAtEnd
        let sorted = packets.sorted { ($0.time, $0.end) < ($1.time, $1.end) }
        var times: [Duration] = [], needed: [Int64] = []
        times.reserveCapacity(sorted.count)
        needed.reserveCapacity(sorted.count)
        var furthest = headerBytes
        for packet in sorted {
            furthest = max(furthest, packet.end)
            if times.last == packet.time { needed[needed.count - 1] = furthest } else {
                times.append(packet.time)
                needed.append(furthest)
            }
        }
        self.times = times
        self.needed = needed
    }

    /// The bytes that must have arrived to present the media up to `time` (inclusive): every packet presented at or
    /// before it, and the header. Past the last packet: the whole file's media.
    public func bytesNeeded(through time: Duration) -> Int64 {
        // The last entry at or before `time` (binary search).
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? headerBytes : needed[low - 1]
    }

    /// The bytes needed for the whole media.
    public var bytesForAll: Int64 { needed.last ?? headerBytes }
}
