/// Real time run `speed` times faster (`--speed 2` plays a 10 s ad in 5 s of wall time): its `now` is the elapsed
/// wall time multiplied by `speed`, and a sleep of d on it sleeps d / speed on the continuous clock.
public struct ScaledClock: Clock, Sendable {
    public typealias Instant = VirtualClock.Instant

    private let base: ContinuousClock
    private let origin: ContinuousClock.Instant
    /// How many seconds of this clock pass per wall-clock second; > 0.
    public let speed: Double

    @_spi(LiveParts) public init(speed: Double, base: ContinuousClock) {
        precondition(speed > 0, "speed must be positive")
        self.speed = speed
        self.base = base
        self.origin = base.now
    }

    public var now: Instant { Instant(offset: (base.now - origin) * speed) }
    public var minimumResolution: Duration { base.minimumResolution * speed }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let wallDeadline = origin.advanced(by: deadline.offset / speed)
        try await base.sleep(until: wallDeadline, tolerance: tolerance.map { $0 / speed })
    }
}
