import Primitives

/// `--abort-on-fail`: watches a running fleet's figures for a threshold breached for good
/// (`FleetThreshold.judgedWhileRunning`) and, at the first, stops the fleet: no session starts after it, those under
/// way are cancelled, and the beacons in flight get `FleetRunner.abortDrain` at most. Checked as beacons are answered
/// and sessions end (no timer task: on a test clock nothing spins), at most every `interval` of the network clock, or
/// every `pokesBetweenChecks` of those when the clock has not moved (a test's manual clock): a breach is seen at the
/// first answer or session end `interval` after the last check at the latest.
final class FleetAbortWatch: Sendable {
    /// The first breach: the threshold's verdict on the figures then, and when it was seen (seconds on the network
    /// clock since the fleet started).
    struct Breach: Sendable, Equatable {
        var verdict: FleetThreshold.Verdict
        var seconds: Double
    }

    static let interval: Duration = .milliseconds(100)
    static let pokesBetweenChecks = 256

    private struct State {
        var last: Duration?
        var pokesSince = 0
        var checking = false
        var breach: Breach?
        var onBreach: (@Sendable () -> Void)?
    }

    private let thresholds: [FleetThreshold]
    private let elapsed: @Sendable () -> Duration
    private let state = Locked(State())

    /// - Parameter thresholds: those given; only those judged while running may abort (the others, at the end).
    init(thresholds: [FleetThreshold], clock: any Clock<Duration>) {
        self.thresholds = thresholds.filter(\.judgedWhileRunning)
        elapsed = clock.stopwatch()
    }

    /// The breach that stopped the fleet, if one did.
    var breach: Breach? { state.withLock { $0.breach } }

    /// What stopping the fleet takes, run once at the breach (at once when it came first).
    func onBreach(_ action: @escaping @Sendable () -> Void) {
        let breached = state.withLock { state in
            state.onBreach = action
            return state.breach != nil
        }
        if breached { action() }
    }

    /// A session ended: checks the figures when due; true when the fleet has been stopped.
    @discardableResult
    func sessionEnded(_ tally: FleetTally) -> Bool {
        guard let now = due() else { return breach != nil }
        return check(tally, at: now)
    }

    /// A beacon was answered: when a check is due, checks in a task of its own (this runs under the dispatcher's lock,
    /// where stopping the fleet must not).
    func beaconAnswered(_ tally: FleetTally) {
        guard let now = due() else { return }
        Task { _ = self.check(tally, at: now) }
    }

    /// When a check is due now, the time, with the check marked as under way; nil otherwise (or once stopped).
    private func due() -> Duration? {
        let now = elapsed()
        return state.withLock { state -> Duration? in
            guard state.breach == nil else { return nil }
            state.pokesSince += 1
            if state.checking { return nil }
            if let last = state.last, now - last < Self.interval, state.pokesSince < Self.pokesBetweenChecks { return nil }
            (state.last, state.pokesSince, state.checking) = (now, 0, true)
            return now
        }
    }

    /// Judges the figures now; on a breach, records it and stops the fleet.
    private func check(_ tally: FleetTally, at now: Duration) -> Bool {
        let figures = tally.figures
        let verdict = thresholds.lazy.compactMap { $0.finalBreach(figures) }.first
        let action = state.withLock { state -> (@Sendable () -> Void)?? in
            state.checking = false
            guard let verdict, state.breach == nil else { return nil }
            state.breach = Breach(verdict: verdict, seconds: now.seconds)
            return .some(state.onBreach)
        }
        guard let action else { return false }
        action?()
        return true
    }
}
