import Networking

/// What a decode (or demux) pass has seen so far.
public struct DecodeStatistics: Sendable, Equatable, Codable {
    /// Counts for one stream.
    public struct Stream: Sendable, Equatable, Codable {
        /// The stream's index in the container.
        public var index: Int
        /// The stream's media type.
        public var type: StreamInfo.Kind
        /// Frames decoded (decode mode) or packets read (demux mode).
        public var frames: Int = 0
        /// Presentation time of the first and of the last frame, seconds from the ad's first shown picture
        /// (`MediaInfo.timeline.start`; sound before it is negative).
        public var firstTime: Double?
        /// See `firstTime`.
        public var lastTime: Double?
        /// Where the last frame's presentation ends, seconds.
        public var end: Double?
        /// Packets the decoder rejected or frames it failed to produce.
        public var decodeErrors: Int = 0
    }

    /// Counts per stream.
    public var streams: [Stream]
    /// Bytes of compressed data read.
    public var bytes: Int64 = 0
    /// Decode errors over all streams.
    public var decodeErrors: Int { streams.reduce(0) { $0 + $1.decodeErrors } }
    /// Frames (or packets) over all streams.
    public var frames: Int { streams.reduce(0) { $0 + $1.frames } }

    /// Statistics of `streams`, with no bytes read yet.
    public init(streams: [Stream]) { self.streams = streams }

    /// Where presentation ends over all streams (the longest), seconds.
    public var end: Double? { streams.compactMap(\.end).max() }
}
