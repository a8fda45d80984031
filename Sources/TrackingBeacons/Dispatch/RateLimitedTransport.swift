import Primitives

/// Spaces requests out to at most `perSecond` a second over everything sent through it (a fleet's `--rate`), on the
/// network clock: each request waits for its slot, `1/perSecond` after the previous one's, then goes out.
public struct RateLimitedTransport: BeaconTransport, AffineTransport {
    /// The transport that sends each request once its slot comes.
    public let base: any BeaconTransport
    /// Requests per second over everything sent through this transport.
    public let perSecond: Double
    private let slots: SlotClock
    private let clock: any Clock<Duration>

    /// - Parameter perSecond: requests per second, > 0 (taken as 0.001 to 10⁹).
    public init(base: any BeaconTransport, perSecond: Double, clock: any Clock<Duration>) {
        self.base = base
        self.perSecond = perSecond
        self.clock = clock
        slots = SlotClock(interval: .nanoseconds(Int64((1e9 / min(max(perSecond, 0.001), 1e9)).rounded())), elapsed: clock.stopwatch())
        affine = base as? any AffineTransport
    }

    /// `base` when it has thread affinity, asked once.
    private let affine: (any AffineTransport)?

    /// The base transport's preference.
    var attemptExecutor: (any TaskExecutor)? { affine?.attemptExecutor }

    /// Never at once: each request waits for its slot (`send`).
    func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool { false }

    /// Waits for the next slot on the network clock, then sends `url` through `base`.
    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let wait = await slots.next()
        if wait > .zero { try? await clock.sleep(for: wait) }
        return await base.send(url, timeout: timeout)
    }

    /// Hands out send times `interval` apart, never in the past; returns how long the caller waits for its slot.
    private actor SlotClock {
        let interval: Duration
        let elapsed: @Sendable () -> Duration
        private var last: Duration?

        init(interval: Duration, elapsed: @escaping @Sendable () -> Duration) {
            self.interval = interval
            self.elapsed = elapsed
        }

        func next() -> Duration {
            let now = elapsed()
            let slot = last.map { max(now, $0 + interval) } ?? now
            last = slot
            return slot - now
        }
    }
}
