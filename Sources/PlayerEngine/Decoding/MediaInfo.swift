/// What a media file holds, as FFmpeg reads it from the container (before decoding).
public struct MediaInfo: Sendable, Equatable, Codable {
    /// The file path or URL that was opened.
    public var location: String
    /// FFmpeg's demuxer name, e.g. `"mov,mp4,m4a,3gp,3g2,mj2"`.
    public var format: String
    /// Container duration in seconds (FFmpeg's `AVFormatContext.duration`: the longest track, edit lists applied).
    public var duration: Double
    /// The same duration, exactly (microsecond precision, as the container gives it).
    public var exactDuration: Duration { .microseconds(durationMicroseconds) }
    /// Container duration in microseconds (`AV_TIME_BASE` units); 0 when unknown.
    public var durationMicroseconds: Int64
    /// Overall bit rate in bits per second; nil when unknown.
    public var bitRate: Int?
    /// File size in bytes when known.
    public var size: Int64?
    public var streams: [StreamInfo]

    /// The first video stream, if any.
    public var video: StreamInfo? { streams.first { $0.type == .video } }
    /// The first audio stream, if any.
    public var audio: StreamInfo? { streams.first { $0.type == .audio } }
}

/// One elementary stream of a media file.
public struct StreamInfo: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case video, audio, subtitle, data, attachment, unknown }

    /// The stream's index in the container.
    public var index: Int
    public var type: Kind
    /// FFmpeg's codec name, e.g. `"h264"`, `"aac"`.
    public var codec: String
    /// Whether this build of FFmpeg has a decoder for it.
    public var decodable: Bool
    public var width: Int?
    public var height: Int?
    /// Average frame rate (frames per second), video only.
    public var fps: Double?
    public var sampleRate: Int?
    public var channels: Int?
    /// Bit rate in bits per second, when the container says.
    public var bitRate: Int?
    /// Stream duration in seconds, when the container says.
    public var duration: Double?
    /// Frames the container announces (`nb_frames`), when it says.
    public var declaredFrames: Int?
}
