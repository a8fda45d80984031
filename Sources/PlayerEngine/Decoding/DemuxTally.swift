/// What the demuxer has read of one stream: enough to tell, at the end of the data, whether the file was cut.
struct DemuxTally {
    /// Packets read.
    var packets = 0
    /// Largest packet end (presentation time + duration) in the stream's own ticks, nil before any timestamp.
    var lastEnd: Int64?
    /// Whether the latest packet was flagged `AV_PKT_FLAG_CORRUPT` (an MP4 sample read short at the end of data).
    var lastCorrupt = false
}
