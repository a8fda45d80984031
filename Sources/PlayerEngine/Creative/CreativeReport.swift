/// What the decode pass measured of the creative itself (`MediaOpenOptions.analyzeCreative`): its loudness, its
/// leaders and trailers of black or frozen picture and of silence, and its scan. Times are seconds.
public struct CreativeReport: Sendable, Equatable, Codable {
    /// Loudness of the first audio stream; nil without audio.
    public var loudness: LoudnessMeter.Result?
    /// Black picture from the first video frame on (ITU-R BT.601/709 luma within 10 % of black on 98 % of the
    /// picture, as FFmpeg's `blackdetect` defaults), and up to the last.
    public var blackStart = 0.0, blackEnd = 0.0
    /// An unchanging picture (black or not) from the first video frame on, and up to the last: the mean luma
    /// difference between frames under 0.1 % of full range (`freezedetect`'s default −60 dB).
    public var frozenStart = 0.0, frozenEnd = 0.0
    /// Silence (every channel under −60 dBFS, `silencedetect`'s default) from the first audio sample on, and up to
    /// the last.
    public var silentStart = 0.0, silentEnd = 0.0
    /// Whether the audio is silent throughout.
    public var silentThroughout = false
    /// Video frames seen, and how many of them were coded interlaced (field pictures or interlaced frames).
    public var videoFrames = 0, interlacedFrames = 0
    /// Whether the file is an MP4 whose `moov` comes after its media data (not written for fast start).
    public var moovAfterMediaData = false

    public init() {}
}
