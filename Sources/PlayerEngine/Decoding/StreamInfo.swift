import Primitives

/// One elementary stream of a media file.
public struct StreamInfo: Sendable, Equatable, Codable {
    /// The stream's media type, as FFmpeg reports it.
    public enum Kind: String, Sendable, Codable { case video, audio, subtitle, data, attachment, unknown }

    /// The stream's index in the container.
    public var index: Int
    /// The stream's media type.
    public var type: Kind
    /// FFmpeg's codec name, e.g. `"h264"`, `"aac"`.
    public var codec: String
    /// Whether this build of FFmpeg has a decoder for it.
    public var decodable: Bool
    /// Picture width in pixels, video only.
    public var width: Int?
    /// Picture height in pixels, video only.
    public var height: Int?
    /// Average frame rate (frames per second), video only.
    public var fps: Double?
    /// Samples per second, audio only.
    public var sampleRate: Int?
    /// Audio channels, audio only.
    public var channels: Int?
    /// Bit rate in bits per second, when the container says.
    public var bitRate: Int?
    /// Stream duration in seconds, when the container says.
    public var duration: Double?
    /// Frames the container announces (`nb_frames`), when it says.
    public var declaredFrames: Int?
    /// The codec's profile, as FFmpeg names it (`"High"`, `"LC"`), when the stream says.
    public var profile: String?
    /// The codec's level as the stream codes it (H.264: ten times the level, `31` for 3.1), when it says.
    public var level: Int?
}
