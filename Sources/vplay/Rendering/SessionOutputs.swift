import Primitives
import AdSession
import ArgumentParser
import Foundation
import TrackingBeacons

/// The files a session writes besides stdout: the beacon log (JSON Lines, written as each attempt is answered and put
/// in place at the end, also on an error exit or an interruption) and the HAR archive (written at the end, also when
/// interrupted). Both go through `OutputFile`, so a file at either path is replaced whole or not at all.
final class SessionOutputs: Sendable {
    private let log: BeaconLogWriter?
    private let harPath: String?
    private let userAgent: String
    /// The HAR page's title: the tag.
    private let title: String
    private let state = Locked((records: [BeaconRecord](), transcript: SessionTranscript()))

    init(beaconsPath: String?, harPath: String?, userAgent: String, title: String = "vplay session", session: String) throws {
        if let beaconsPath {
            do { log = BeaconLogWriter(file: try OutputFile(beaconsPath, option: "--beacons"), session: session) } catch {
                throw ValidationError("--beacons \(beaconsPath): cannot write there (\(error.reason))")
            }
        } else {
            log = nil
        }
        self.harPath = harPath
        self.userAgent = userAgent
        self.title = title
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

    /// Puts the beacon log in place and writes the HAR; each on its own, so one that fails does not keep the other
    /// from being written. Returns what failed.
    func finish(interrupted: Bool) -> [OutputError] {
        var failures: [OutputError] = []
        do { try log?.close() } catch { failures.append(error) }
        guard let harPath else { return failures }
        let all = state.withLock { $0.records }
        let document = HARDocument(records: all, userAgent: userAgent, title: title, comment: interrupted ? "interrupted: the session was stopped by a signal" : nil)
        do {
            let data = try document.encoded()
            try OutputFile.write(String(decoding: data, as: UTF8.self), to: harPath, option: "--har")
        } catch let error as OutputError {
            failures.append(error)
        } catch {
            failures.append(OutputError(output: "--har \(harPath)", reason: "\(error)"))
        }
        return failures
    }

    /// Writes nothing: the beacon log's path keeps what it had.
    func discard() {
        log?.discard()
    }
}
