import AdSession
import Primitives
import TrackingBeacons
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

/// Expectation files as users write them (issue 6), in process: a golden file round-trips, a tolerance broken by a
/// second names the event, YAML counts rewards and endings, an expected error passes, reward callbacks are counted.
/// That the files a run writes parse is `ReportTests`, through the binary.
extension ExpectationBehaviourTests {
    static let script = "background@3,foreground@13,mute@14"

    @Test func goldenFile_roundTrips_andABrokenToleranceFailsWithADiffNamingTheEvent() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        try await record(["--vast", "media/demo.xml", "--dry-run", "--script", Self.script], to: golden)
        let same = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", Self.script, "--expect", golden, "--seed", "99"])
        #expect(same.exitCode == 0 && same.failed.isEmpty, "templates, not expanded URLs, so another seed still matches: \(same.failed)")
        #expect((same.results?.count ?? 0) > 40)
        // Coming back one second later moves every later event by 1 s: over the 1 ms tolerance.
        let late = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", "background@3,foreground@14,mute@15", "--expect", golden])
        #expect(late.exitCode == 1)
        #expect(late.failed.contains { $0.name == "midpoint at playhead 5.000 s, clock 15.000 s ±0.001 s" && $0.detail == "was at clock 16.000 s (off by +1.000 s)" },
                "\(late.failed.map { "\($0.name): \($0.detail ?? "")" })")
    }

    @Test func yamlExpectations_rewardAndBeaconCounts() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("expect.yaml", """
            tolerance: 0.001
            events:
              - name: firstQuartile
                playhead: 2.5
              - name: pause
                count: 0
            beacons:
              - event: midpoint
                url: "*pos=00%3A00%3A05.000*"
                count: 1
              - url: "*/error*"
                count: 0
            reward: false
            ending: closedEarly
            """)
        let pass = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", "close@6", "--expect", file])
        #expect(pass.exitCode == 0 && pass.failed.isEmpty, "\(pass.failed)")
        let fail = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--expect", file])
        #expect(fail.exitCode == 1 && fail.failed.map(\.name) == ["no reward", "ending closedEarly"], "\(fail.failed)")
    }

    @Test func expectedError_passes() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("empty.xml", #"<VAST version="4.1"></VAST>"#)
        let file = try folder.write("expect.json", #"{"errorCode": 303, "events": [{"name": "impression", "count": 0}]}"#)
        let run = try await verdict(["--vast", tag, "--dry-run", "--expect", file])
        #expect(run.exitCode == 0 && run.failed.isEmpty, "\(run.failed)")
        let wrong = try folder.write("wrong.json", #"{"errorCode": 0}"#)
        #expect(try await verdict(["--vast", tag, "--dry-run", "--expect", wrong]).exitCode == 1)
    }

    @Test func aForfeitedReward_sendsNoCallback_andExpectationsCountCallbacks() async throws {
        let closed = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--script", "close@3", "--reward-callback", "http://127.0.0.1:9/ssv"])
        #expect(closed.events(.rewardForfeited).map(\.clock) == [.seconds(3)] && closed.beacons("rewardCallback").isEmpty)
        let folder = try TemporaryFolder()
        let expect = try folder.write("expect.json", #"{"beacons": [{"event": "rewardCallback", "url": "http://127.0.0.1:9/ssv?*", "count": 1}]}"#)
        let granted = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--reward-callback", "http://127.0.0.1:9/ssv", "--expect", expect])
        #expect(granted.exitCode == 0 && granted.failed.isEmpty, "\(granted.failed)")
        #expect(granted.run.beacons("rewardCallback").map(\.clock) == [.seconds(10)])
        let none = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--script", "close@3", "--reward-callback", "http://127.0.0.1:9/ssv", "--expect", expect])
        #expect(none.exitCode == 1)
    }
}

/// What `--junit` and the text output say of a run, made in process by the renderers `vplay` writes them with. That
/// the file is valid against the JUnit schema and where it ran is `JUnitTests`, through the binary.
extension ExpectationBehaviourTests {
    /// JUnit test names are the checks, not their values, so a golden file with new values keeps the same tests; a
    /// failure says what differed.
    @Test func junit_testNames_areTheChecks_andFailuresSayWhatDiffered() async throws {
        let folder = try TemporaryFolder()
        func cases(_ name: String, _ expectations: String) async throws -> [(name: String, failure: String?)] {
            let file = try folder.write("\(name).json", expectations)
            let verdict = try await verdict(["--vast", "media/demo.xml", "--dry-run", "--expect", file])
            return JUnitReport.sessionCases(summary: verdict.run.summary, transcript: verdict.transcript, results: verdict.results).map { item in
                if case let .failed(message, _) = item.outcome { (item.name, message) } else { (item.name, nil) }
            }
        }
        let holds = try await cases("holds", #"""
            {"events": [{"name": "midpoint", "playhead": 5.0, "clock": 5.0}, {"name": "pause", "count": 0}],
             "beacons": [{"event": "midpoint", "url": "*/midpoint*", "count": 1}], "reward": true, "ending": "completed"}
            """#)
        let changed = try await cases("changed", #"""
            {"events": [{"name": "midpoint", "playhead": 6.0, "clock": 6.5}, {"name": "pause", "count": 2}],
             "beacons": [{"event": "midpoint", "url": "*/midpoint*", "count": 3}], "reward": false, "ending": "skipped"}
            """#)
        let names = holds.map(\.name)
        #expect(names == ["event midpoint time", "event pause count", "beacon midpoint matching */midpoint* count", "reward", "ending"])
        #expect(changed.map(\.name) == names, "the same tests, whatever values the golden file holds")
        #expect(holds.allSatisfy { $0.failure == nil })
        let failures = Dictionary(uniqueKeysWithValues: changed.map { ($0.name, $0.failure ?? "") })
        #expect(failures["event midpoint time"]?.contains("expected midpoint at playhead 6.000 s, clock 6.500 s") == true
                && failures["event midpoint time"]?.contains(", but was at playhead 5.000 s (off by -1.000 s), clock 5.000 s") == true,
                "\(failures["event midpoint time"] ?? "")")
        #expect(failures["beacon midpoint matching */midpoint* count"]?.contains("fires 3 times, but fired once") == true)
        #expect(failures["ending"] == "expected ending skipped, but ended completed")
    }

    /// The text a run prints: a line per record (the midpoint marked) and the summary with its beacon count.
    @Test func textOutput_showsTimelineAndSummary() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run"])
        let lines = run.records.map { SessionText.line($0) }
        #expect(lines.contains { $0.contains("● midpoint") }, "\(lines)")
        let summary = SessionText.summary(run.summary, exitCode: 0)
        #expect(summary.contains("summary: completed (exit 0)") && summary.contains("12 planned (dry run: none sent)"), "\(summary)")
    }
}

extension ExpectationBehaviourTests {
    /// The beacon log `--beacons` writes, made as `vplay` makes it (`SessionOutputs`, the session id from the seed):
    /// the same seed and instant give the same bytes, and every line's keys are sorted, so logs diff cleanly in CI.
    @Test func beaconLog_sameSeedAndNow_isTheSameBytes_withSortedKeys() async throws {
        let folder = try TemporaryFolder()
        var logs: [Data] = []
        for index in 0..<2 {
            let arguments = ["--vast", "media/demo.xml", "--dry-run", "--seed", "5", "--now", "2026-01-01T00:00:00Z"]
            let configuration = try kit.configuration(cli: arguments)
            let run = await kit.run(configuration)
            let path = folder.url.appendingPathComponent("run\(index).jsonl").path
            let outputs = try SessionOutputs(beaconsPath: path, harPath: nil, userAgent: configuration.userAgent, title: "media/demo.xml",
                                             session: TransactionID.make(seed: configuration.seed))
            for record in run.records { outputs.record(record) }
            #expect(outputs.finish(interrupted: false).isEmpty)
            logs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(logs[0] == logs[1] && !logs[0].isEmpty)
        let first = try #require(String(decoding: logs[0], as: UTF8.self).split(separator: "\n").first)
        let keys = first.matches(of: /"([A-Za-z]+)":/).map { String($0.output.1) }
        #expect(!keys.isEmpty && keys == keys.sorted(), "\(keys)")
    }
}
