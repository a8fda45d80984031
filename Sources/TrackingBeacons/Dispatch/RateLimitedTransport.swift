/// Spaces requests out to at most `perSecond` a second over everything sent through it (a fleet's `--rate`), on the
/// wall clock: each request waits for its slot, `1/perSecond` after the previous one's, then goes out.
public struct RateLimitedTransport: BeaconTransport {
    public let base: any BeaconTransport
    public let perSecond: Double
    private let slots: SlotClock

    /// - Parameter perSecond: requests per second, > 0 (taken as 0.001 to 10⁹).
    public init(base: any BeaconTransport, perSecond: Double) {
        self.base = base
        self.perSecond = perSecond
        slots = SlotClock(interval: .nanoseconds(Int64((1e9 / min(max(perSecond, 0.001), 1e9)).rounded())))
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let slot = await slots.next()
        try? await ContinuousClock().sleep(until: slot, tolerance: nil)
        return await base.send(url, timeout: timeout)
    }

    /// Hands out send times `interval` apart, never in the past.
    private actor SlotClock {
        let interval: Duration
        private var last: ContinuousClock.Instant?

        init(interval: Duration) { self.interval = interval }

        func next() -> ContinuousClock.Instant {
            let now = ContinuousClock.now
            let slot = last.map { max(now, $0.advanced(by: interval)) } ?? now
            last = slot
            return slot
        }
    }
}
