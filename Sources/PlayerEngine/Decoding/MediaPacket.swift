/// One demuxed packet (demux-only mode): its timestamps and size, without decoding.
public struct MediaPacket: Sendable, Equatable {
    /// Index of the stream in the container.
    public var stream: Int
    /// Presentation time from the ad's first shown picture; nil when the container gives none.
    public var time: Duration?
    /// Decode time from the ad's first shown picture; nil when the container gives none.
    public var decodeTime: Duration?
    /// Duration of the packet's content.
    public var duration: Duration
    /// The packet's size in bytes.
    public var size: Int
    /// Whether the container flags the packet as a key frame.
    public var isKeyFrame: Bool
}
