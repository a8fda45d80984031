import AdSession
import Foundation
import Testing
import TestSupport
@testable import vplay

/// Expectations and golden files in process (`Sources/AdSession/Expectations`): a run recorded with
/// `--record-expectations` (the file written as `vplay` writes it) and checked with `--expect` (read as `vplay` reads
/// it), the verdict of each expectation, and the exit code `RunCommand` reaches from them. What only the process shows
/// (the exit status, files written on failure) is `RegressionWorkflowTests` in the end-to-end suite.
@Suite struct ExpectationBehaviourTests {
    let kit = SessionKit()

    /// What a run command line ends with once the session is over, as `RunCommand.run()` reaches it.
    struct Verdict {
        var run: SessionRun
        var transcript: SessionTranscript
        /// Each expectation of `--expect`, checked; nil without it.
        var results: [ExpectationResult]?
        var exitCode: Int32

        /// The result named `name` (`no other events`…).
        func result(_ name: String) -> ExpectationResult? { results?.first { $0.name == name } }
        var failed: [ExpectationResult] { (results ?? []).filter { !$0.passed } }
    }

    /// - Parameter kit: the kit to play on (its answers…); the suite's when nil.
    func verdict(_ arguments: [String], on kit: SessionKit? = nil) async throws -> Verdict {
        let kit = kit ?? self.kit
        let command = try kit.command(cli: arguments, as: RunCommand.self)
        let run = try await kit.run(cli: arguments)
        var transcript = SessionTranscript()
        for record in run.records { transcript.add(record) }
        let expectations = command.reports.expect
        let results = expectations.map { $0.check(transcript, summary: run.summary) }
        return Verdict(run: run, transcript: transcript, results: results,
                       exitCode: command.exitCode(for: run.summary, expectations: expectations, results: results))
    }

    /// Plays `arguments` and writes its golden file to `path` as `--record-expectations path` does.
    func record(_ arguments: [String], to path: String) async throws {
        let verdict = try await verdict(arguments)
        let golden = SessionExpectations(recording: verdict.transcript, summary: verdict.run.summary)
        try ReportOptions.encode(golden, yaml: path.hasSuffix(".yaml")).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aGoldenFile_isStrict_aRunWithExtraBeaconsAndEventsFails() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        try await record(["--vast", "media/demo.xml", "--dry-run"], to: golden)
        let same = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--expect", golden, "--seed", "7"])
        #expect(same.failed.isEmpty && same.exitCode == 0, "the same run with another seed passes: \(same.failed)")
        let more = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--expect", golden, "--script", "mute@1,unmute@2"])
        #expect(more.exitCode == 1)
        #expect(more.result("no other events")?.passed == false && more.result("no other events")?.detail == "also happened: mute once, unmute once")
        #expect(more.result("no other beacons")?.passed == false
                && more.result("no other beacons")?.detail?.hasPrefix("also fired 2 times: mute ") == true, "\(more.failed)")
    }

    @Test func aGoldenFile_recordsEventDetails_soAPauseForAnotherReasonFails() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.yaml").path
        try await record(["--vast", "media/demo.xml", "--dry-run", "--script", "pause@3,resume@4"], to: golden)
        #expect(try String(contentsOfFile: golden, encoding: .utf8).contains("detail: user"))
        let same = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", "pause@3,resume@4", "--expect", golden])
        #expect(same.failed.isEmpty && same.exitCode == 0, "\(same.failed)")
        let other = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", "willResignActive@3,didBecomeActive@4", "--expect", golden])
        #expect(other.exitCode == 1, "same times, but an inactive app is not a user pause")
        #expect(other.failed.contains { $0.name.hasPrefix("pause (user)") }, "\(other.failed)")
    }

    /// A golden file expects `errorCode: 0` and every beacon; it never turns the session's own code into a pass: every
    /// beacon refused is exit 5 under `--fail-on-beacon-errors`, though each expectation holds.
    @Test func aGoldenFile_neverHidesBeaconFailuresFromFailOnBeaconErrors() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        try await record(["--vast", "media/demo.xml", "--dry-run"], to: golden)
        var refusing = kit
        refusing.answers = [.refused]
        let strict = try await verdict(["--vast", "media/demo.xml", "--expect", golden, "--fail-on-beacon-errors", "--beacon-timeout", "2"], on: refusing)
        #expect(strict.failed.isEmpty, "every expectation holds: \(strict.failed)")
        #expect(strict.run.summary.beaconsFailed == strict.run.planned.count && strict.run.summary.beaconsDelivered == 0, "every beacon failed")
        #expect(strict.exitCode == 5)
        let lenient = try await verdict(["--vast", "media/demo.xml", "--expect", golden, "--beacon-timeout", "2"], on: refusing)
        #expect(lenient.exitCode == 0)
    }

    @Test func junit_withExpectations_hasOneCasePerExpectation() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("expect.json", #"{"events": [{"name": "midpoint", "playhead": 5.0}, {"name": "complete", "playhead": 9.0}], "reward": true}"#)
        let verdict = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--expect", file])
        #expect(verdict.exitCode == 1)
        let cases = JUnitReport.sessionCases(summary: verdict.run.summary, transcript: verdict.transcript, results: verdict.results)
        #expect(cases.count == 3)
        let failures = cases.compactMap { if case let .failed(message, _) = $0.outcome { message } else { nil } }
        #expect(failures.count == 1 && failures.first?.contains("complete") == true, "\(failures)")
    }
}
