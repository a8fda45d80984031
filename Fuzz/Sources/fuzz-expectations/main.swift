import AdSession
import Dispatch
import Foundation
import FuzzDriver
import PlayerEngine
import Yams

/// An expectations file (`--expect FILE`) decoded as `vplay run` reads it — JSON through `JSONDecoder`, YAML through
/// Yams' `YAMLDecoder` (the CLI's loader in `ReportOptions.swift` chooses between the two; both are tried here) —
/// then checked against a real transcript (a dry run of `media/demo.xml`, made once) and encoded back. Any input may
/// be refused with a decoding error; none may crash or hang.
func fuzzExpectations(_ input: UnsafeRawBufferPointer) -> CInt {
    let data = Data(input)
    let run = DemoRun.shared
    var decoded: [SessionExpectations] = []
    if let expectations = try? JSONDecoder().decode(SessionExpectations.self, from: data) { decoded.append(expectations) }
    if let expectations = try? YAMLDecoder().decode(SessionExpectations.self, from: data) { decoded.append(expectations) }
    for expectations in decoded {
        _ = expectations.isEmpty
        _ = expectations.check(run.transcript, summary: run.summary)
        _ = try? JSONEncoder().encode(expectations)
    }
    return 0
}

/// A dry run of the demo tag (no beacon is sent): the transcript and summary every input is checked against.
final class DemoRun: @unchecked Sendable {
    var transcript = SessionTranscript()
    var summary: SessionSummary!

    static let shared: DemoRun = {
        let result = DemoRun()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var configuration = SessionConfiguration(tag: root.appendingPathComponent("media/demo.xml").path)
        configuration.dryRun = true
        configuration.now = 1_795_000_000_000
        configuration.decoderThreads = 1
        configuration.script = (try? SessionScript(parsing: "background@3,foreground@13")) ?? SessionScript()
        let done = DispatchSemaphore(value: 0)
        Task {
            let records = Records()
            result.summary = await AdSessionRunner(configuration: configuration).run { await records.add($0) }
            for record in await records.all { result.transcript.add(record) }
            done.signal()
        }
        done.wait()
        precondition(result.summary?.outcome == .completed && !result.transcript.events.isEmpty,
                     "the demo dry run did not complete: \(result.summary?.error.map { "\($0)" } ?? "no events")")
        return result
    }()
}

actor Records {
    var all: [SessionRecord] = []
    func add(_ record: SessionRecord) { all.append(record) }
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzExpectations(UnsafeRawBufferPointer(start: data, count: size)) })
