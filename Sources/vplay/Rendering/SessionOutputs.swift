import Primitives
import AdSession
import Foundation
import TrackingBeacons

/// The files a session writes besides stdout: the beacon log (JSON Lines, appended as each attempt is answered, so
/// nothing is lost on an error exit or an interruption) and the HAR archive (written at the end, also when
/// interrupted).
final class SessionOutputs: @unchecked Sendable {
    private let log: BeaconLogWriter?
    private let harPath: String?
    private let userAgent: String
    private let state = Locked((records: [BeaconRecord](), transcript: SessionTranscript()))

    init(beaconsPath: String?, harPath: String?, userAgent: String) throws {
        do {
            log = try beaconsPath.map { try BeaconLogWriter(path: $0) }
        } catch {
            throw ValidationError("--beacons \(beaconsPath ?? ""): cannot write there (\(error.localizedDescription))")
        }
        self.harPath = harPath
        self.userAgent = userAgent
    }

    func record(_ record: SessionRecord) {
        state.withLock { $0.transcript.add(record) }
        guard case let .beacon(beacon) = record else { return }
        log?.append(beacon)
        state.withLock { $0.records.append(beacon) }
    }

    /// Everything reported so far.
    var sessionTranscript: SessionTranscript {
        state.withLock { $0.transcript }
    }

    func finish(interrupted: Bool) throws {
        log?.close()
        guard let harPath else { return }
        let all = state.withLock { $0.records }
        let document = HARDocument(records: all, userAgent: userAgent, comment: interrupted ? "interrupted: the session was stopped by a signal" : nil)
        do {
            // Atomic: a second Ctrl-C while writing leaves no half (or empty) archive behind.
            try document.encoded().write(to: URL(fileURLWithPath: harPath), options: .atomic)
        } catch {
            throw ValidationError("--har \(harPath): cannot write it (\(error.localizedDescription))")
        }
    }
}

import ArgumentParser
