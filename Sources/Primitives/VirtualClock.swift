/// A clock whose time moves only when someone sleeps on it: `sleep(until:)` returns at once with `now` set to the
/// deadline. Playback on it runs as fast as decoding allows while every event keeps the timestamps it would have on a
/// wall clock, to the attosecond, so runs are deterministic and tests assert exact times.
///
/// The same instance is shared by playback and beacon retries (DESIGN.md "Time"). It never goes backwards: a sleep
/// to a deadline already passed returns without moving the clock.
public final class VirtualClock: SteppableClock, Sendable {
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// Time since the clock was created.
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current: Locked<Duration>

    public init(now: Duration = .zero) { current = Locked(now) }

    public var now: Instant { Instant(offset: current.withLock { $0 }) }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        advance(to: deadline)
    }

    /// Moves the clock to `deadline` unless it is there already: what `sleep(until:)` does once it checked for
    /// cancellation, without an async call (the engine's loop, which checks for cancellation itself).
    public func advance(to deadline: Instant) {
        current.withLock { now in if deadline.offset > now { now = deadline.offset } }
    }

    public func step(to instant: Instant) { advance(to: instant) }
}

