import Primitives
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// The CI and QA workflows the first audit found holes in, as far as only a process shows them: the exit status a
/// golden file gives, output paths found bad only after the ad played (a usage error), files written on every exit,
/// signal echoes. What expectations and golden files judge, media errors mid-play and the media fallback are
/// `ExpectationBehaviourTests` and `MediaFallbackBehaviourTests`, in process.
@Suite struct RegressionWorkflowTests {
    /// The demo tag with its media as an absolute file URL (so the tag can live in a temporary folder).
    static func demoTag(_ folder: TemporaryFolder, replacing pairs: [(String, String)] = []) throws -> String {
        var tag = try DemoTags.text()
        for (old, new) in pairs { tag = tag.replacingOccurrences(of: old, with: new) }
        return try folder.write("tag.xml", tag)
    }

    /// Only a process shows the exit status a golden file gives: recorded (`--record-expectations`, the file written),
    /// the same run passes (0), a run with extra events fails (1), and every beacon refused is still 5 under
    /// `--fail-on-beacon-errors` though every expectation holds (0 without it). The verdicts themselves are
    /// `ExpectationBehaviourTests`, in process.
    @Test func goldenFile_exitCodes_passFailAndBeaconFailuresNeverHidden() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        // Port 9 on loopback: nothing listens; every beacon is refused.
        let tag = try Self.demoTag(folder, replacing: [("http://127.0.0.1:8089", "http://127.0.0.1:9")])
        let cases: [([String], Int32)] = [
            (["--dry-run", "--record-expectations", golden], 0),
            (["--dry-run", "--expect", golden, "--seed", "7"], 0),
            (["--dry-run", "--expect", golden, "--script", "mute@1,unmute@2"], 1),
            (["--expect", golden, "--fail-on-beacon-errors", "--beacon-timeout", "2"], 5),
            (["--expect", golden, "--beacon-timeout", "2"], 0),
        ]
        for (arguments, status) in cases {
            let run = try await vplay(["--vast", tag] + arguments)
            #expect(run.status == status, "\(arguments): \(run.stdout.suffix(400)) \(run.stderr)")
        }
    }

    /// Only a process shows the usage error (exit 2) an unwritable output path is, and that nothing played.
    @Test func anUnwritableOutputPath_isAUsageError_beforeTheAdPlays() async throws {
        for option in ["--report", "--junit", "--timeline", "--record-expectations", "--har", "--beacons"] {
            let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", option, "/nonexistent-dir/out.file"])
            #expect(run.status == 2, "\(option): \(run.stderr)")
            #expect(run.stderr.contains("\(option) /nonexistent-dir/out.file: cannot write there"), "\(option): \(run.stderr)")
            #expect(!run.stdout.contains(#""kind":"event""#), "\(option): nothing played")
        }
    }

    /// Only a process shows the files it writes, and its exit status: every output on an ad error (3) and on a media
    /// error (4).
    @Test func everyOutputFile_isWrittenOnAnAdErrorAndOnAMediaError() async throws {
        let folder = try TemporaryFolder()
        let noAd = try folder.write("noad.xml", #"<VAST version="4.1"><Error><![CDATA[http://127.0.0.1:8089/noad?c=[ERRORCODE]]]></Error></VAST>"#)
        let missing = try Self.demoTag(folder, replacing: [("clip-10s-360p.mp4", "no-such-clip.mp4")])
        for (tag, code) in [(noAd, 3), (missing, 4)] {
            let out = try TemporaryFolder()
            func path(_ name: String) -> String { out.url.appendingPathComponent(name).path }
            let run = try await vplay(["--vast", tag, "--dry-run", "--report", path("r.json"), "--junit", path("j.xml"), "--timeline", path("t.svg"),
                                       "--har", path("x.har"), "--beacons", path("b.jsonl")])
            #expect(run.status == Int32(code))
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("r.json")))) as? [String: Any])
            #expect((report["summary"] as? [String: Any])?["exitCode"] as? Int == code)
            let junit = try LeakSanitizer.ignore(XMLDocument(contentsOf: URL(fileURLWithPath: path("j.xml"))))
            #expect(try junit.nodes(forXPath: "//failure").count >= 1)
            let svg = try String(contentsOfFile: path("t.svg"), encoding: .utf8)
            #expect(svg.contains("error \(code == 3 ? 303 : 401)"))
            _ = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("x.har"))))
            #expect(try String(contentsOfFile: path("b.jsonl"), encoding: .utf8).contains("\"event\":\"error\""))
        }
    }

    /// Only a process shows a signal: SIGINT twice (an echo) still writes every file, and exits 130.
    @Test(.hangLimit)
    func signalEcho_withinAMoment_stillWritesEverything_andExits130() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        // Real time, paused from 3 s to 120 s: however long a busy test runner takes to look, the session is still
        // under way when it signals.
        let running = try RunningVPlay(["--vast", Repo.media("demo.xml"), "--dry-run", "--json", "--clock", "realtime",
                                        "--script", "pause@3,resume@120", "--report", path("r.json"), "--junit", path("j.xml")],
                                       in: folder, killAfter: .seconds(100))
        try await running.waitForOutput(containing: #""name":"firstQuartile""#)
        // What GNU timeout and a terminal do: the same signal to the process and again to its group.
        running.child.signal(SIGINT)
        running.child.signal(SIGINT)
        let exit = await running.exit.value
        #expect(!exit.killed && exit.status == 130, "stderr: \(running.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("r.json")))) as? [String: Any])
        #expect((report["summary"] as? [String: Any])?["outcome"] as? String == "interrupted")
        let junit = try String(contentsOfFile: path("j.xml"), encoding: .utf8)
        #expect(junit.contains("session ran to its end") && junit.contains("interrupted by a signal"), "an interrupted run is not green")
    }
}
