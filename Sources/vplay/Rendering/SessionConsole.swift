import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// Writes a session's records to stdout as they happen: JSON Lines (`--json`) or one readable line each.
/// An actor, because beacon answers arrive from other tasks while playback goes on.
actor SessionConsole {
    let json: Bool

    init(json: Bool) { self.json = json }

    func show(_ record: SessionRecord) {
        if json { emit(SessionJSON.line(record).text) } else { emit(SessionText.line(record)) }
    }

    func finish(_ summary: SessionSummary, exitCode: Int32, expectations: [ExpectationResult]? = nil) {
        if let expectations {
            emit(json ? SessionJSON.expectations(expectations).text : SessionText.expectations(expectations))
        }
        if json { emit(SessionJSON.summary(summary, exitCode: exitCode, expectations: expectations).text) } else { emit(SessionText.summary(summary, exitCode: exitCode)) }
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
