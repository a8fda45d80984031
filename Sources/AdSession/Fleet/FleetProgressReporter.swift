import Primitives

/// Reports a fleet's progress a few times a second of the network clock, as sessions finish (no timer task: on a
/// test clock nothing spins).
actor FleetProgressReporter {
    /// At most this often, except the final report.
    static let interval: Duration = .milliseconds(200)

    private let sessions: Int
    private let elapsed: @Sendable () -> Duration
    private var last: Duration?
    private let onProgress: @Sendable (FleetProgress) -> Void

    init(sessions: Int, clock: any Clock<Duration>, onProgress: @escaping @Sendable (FleetProgress) -> Void) {
        self.sessions = sessions
        elapsed = clock.stopwatch()
        self.onProgress = onProgress
    }

    func report(_ tally: FleetTally, final: Bool = false) async {
        let now = elapsed()
        if !final, let last, now - last < Self.interval { return }
        last = now
        let counts = tally.progress
        onProgress(FleetProgress(sessionsDone: counts.sessionsDone, sessions: sessions, beaconsSent: counts.beaconsSent,
                                 beaconsAnswered: counts.beaconsAnswered, seconds: now.seconds))
    }
}
