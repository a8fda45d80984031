/// The media failed during playback: what failed, where playback stopped, and what was measured until then.
public struct PlaybackFailure: Error, Sendable, CustomStringConvertible {
    /// The media's error.
    public var error: MediaError
    /// What was measured until playback stopped.
    public var report: PlaybackReport
    /// The playhead and session clock at which playback stopped.
    public var playhead: Duration
    /// The session clock at which playback stopped.
    public var clock: Duration

    /// A failure as given.
    public init(error: MediaError, report: PlaybackReport, playhead: Duration, clock: Duration) {
        self.error = error
        self.report = report
        self.playhead = playhead
        self.clock = clock
    }

    public var description: String { error.description }
}
