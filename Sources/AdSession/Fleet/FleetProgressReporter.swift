import Primitives

/// Reports a fleet's progress a few times a second of the network clock, as sessions finish (no timer task: on a
/// test clock nothing spins), from whichever session ends.
final class FleetProgressReporter: Sendable {
    /// At most this often, except the final report.
    static let interval: Duration = .milliseconds(200)

    private let sessions: Int
    private let elapsed: @Sendable () -> Duration
    private let last = Locked<Duration?>(nil)
    private let onProgress: @Sendable (FleetProgress) -> Void

    init(sessions: Int, clock: any Clock<Duration>, onProgress: @escaping @Sendable (FleetProgress) -> Void) {
        self.sessions = sessions
        elapsed = clock.stopwatch()
        self.onProgress = onProgress
    }

    func report(_ tally: FleetTally, final: Bool = false) {
        let now = elapsed()
        let due = last.withLock { last in
            if !final, let previous = last, now - previous < Self.interval { return false }
            last = now
            return true
        }
        guard due else { return }
        let counts = tally.progress
        let reach = Dictionary(uniqueKeysWithValues: zip(FleetTally.reachEvents.map(\.rawValue), tally.reach))
        onProgress(FleetProgress(sessionsDone: counts.sessionsDone, sessions: sessions, beaconsSent: counts.beaconsSent,
                                 beaconsAnswered: counts.beaconsAnswered, seconds: now.seconds, reach: reach))
    }
}
