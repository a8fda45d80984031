import Primitives
import AdSession
import Foundation

/// The live line of a fleet on a terminal (stderr): sessions done, beacons sent and answered, rate.
/// Once cleared it stays cleared: a progress report still on its way when the fleet ends cannot draw the line again
/// under the summary.
final class FleetProgressBar: Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" && !StandardStreams.quiet
    private enum State { case hidden, shown, finished }
    private let state = Locked(State.hidden)

    func draw(_ progress: FleetProgress) {
        guard enabled else { return }
        let fraction = progress.sessions > 0 ? Double(progress.sessionsDone) / Double(progress.sessions) : 1
        let filled = Int((fraction * 30).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        let rate = progress.seconds > 0 ? Double(progress.beaconsAnswered) / progress.seconds : 0
        let line = String(format: "\r\u{1B}[2K[%@] %d/%d sessions · %d beacons sent, %d answered · %.0f/s · %.1f s",
                          bar, progress.sessionsDone, progress.sessions, progress.beaconsSent, progress.beaconsAnswered, rate, progress.seconds)
        state.withLock { state in
            guard state != .finished else { return }
            state = .shown
            StandardStreams.error(line)
        }
    }

    /// Clears the line for good (the summary follows).
    func clear() {
        state.withLock { state in
            if state == .shown { StandardStreams.error("\r\u{1B}[2K") }
            state = .finished
        }
    }
}
