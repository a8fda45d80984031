/// A simulated network's delivery of a media file opened in real time (`--network`): each read returns no sooner than
/// `profile` says its last byte arrives, counted from the open on the caller's clock and scaled by `speed`.
public struct MediaThrottle: Sendable {
    /// When each byte arrives.
    public var profile: NetworkProfile
    /// Session seconds per second of `stopwatch` (`--speed`).
    public var speed: Double
    /// Starts a stopwatch when the file is opened, on the clock the session measures real time with (its network
    /// clock): the throttle reads no clock of its own.
    public var stopwatch: @Sendable () -> @Sendable () -> Duration

    public init(profile: NetworkProfile, speed: Double, stopwatch: @escaping @Sendable () -> @Sendable () -> Duration) {
        self.profile = profile
        self.speed = speed
        self.stopwatch = stopwatch
    }
}
