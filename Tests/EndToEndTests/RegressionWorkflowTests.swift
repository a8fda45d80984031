import Primitives
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// The CI and QA workflows the first audit found holes in: golden files that miss new beacons or hide beacon
/// failures, expectation files that check nothing, output paths found bad only after the ad played, signal echoes,
/// usage messages, files written on every exit, and the media fallback.
@Suite struct RegressionWorkflowTests {
    /// The demo tag with its media as an absolute file URL (so the tag can live in a temporary folder).
    static func demoTag(_ folder: TemporaryFolder, replacing pairs: [(String, String)] = []) throws -> String {
        var tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(Repo.media("clip-10s-360p.mp4"))")
        for (old, new) in pairs { tag = tag.replacingOccurrences(of: old, with: new) }
        return try folder.write("tag.xml", tag)
    }

    @Test func goldenFile_isStrict_aRunWithExtraBeaconsAndEventsFails() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        let record = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--record-expectations", golden])
        #expect(record.status == 0, "\(record.stderr)")
        let same = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--expect", golden, "--seed", "7"])
        #expect(same.status == 0, "the same run with another seed passes: \(same.stdout.suffix(600))")
        let more = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--expect", golden, "--script", "mute@1,unmute@2"])
        #expect(more.status == 1)
        #expect(more.stdout.contains("no other events") && more.stdout.contains("also happened: mute once, unmute once"))
        #expect(more.stdout.contains("no other beacons") && more.stdout.contains("also fired 2 times: mute"))
    }

    @Test func goldenFile_recordsEventDetails_soAPauseForAnotherReasonFails() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.yaml").path
        #expect(try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "pause@3,resume@4", "--record-expectations", golden]).status == 0)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text.contains("detail: user"))
        let other = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "willResignActive@3,didBecomeActive@4", "--expect", golden])
        #expect(other.status == 1, "same times, but an inactive app is not a user pause")
    }

    @Test func goldenFile_neverHidesBeaconFailuresFromFailOnBeaconErrors() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        // Port 9 on loopback: nothing listens; every beacon is refused.
        let tag = try Self.demoTag(folder, replacing: [("http://127.0.0.1:8089", "http://127.0.0.1:9")])
        #expect(try await vplay(["--vast", tag, "--dry-run", "--record-expectations", golden]).status == 0)
        let run = try await vplay(["--vast", tag, "--expect", golden, "--fail-on-beacon-errors", "--beacon-timeout", "2"])
        #expect(run.status == 5, "every expectation holds, and every beacon failed: \(run.stdout.suffix(400))")
        let lenient = try await vplay(["--vast", tag, "--expect", golden, "--beacon-timeout", "2"])
        #expect(lenient.status == 0)
    }

    @Test func junit_withExpectations_hasOneCasePerExpectation() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("expect.json", #"{"events": [{"name": "midpoint", "playhead": 5.0}, {"name": "complete", "playhead": 9.0}], "reward": true}"#)
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--expect", file, "--junit", junit])
        #expect(run.status == 1)
        let document = try LeakSanitizer.ignore(XMLDocument(contentsOf: URL(fileURLWithPath: junit)))
        #expect(try document.nodes(forXPath: "//testcase").count == 3)
        let failures = try document.nodes(forXPath: "//failure")
        #expect(failures.count == 1 && failures.first?.stringValue?.contains("complete") == true)
    }

    @Test func anUnwritableOutputPath_isAUsageError_beforeTheAdPlays() async throws {
        for option in ["--report", "--junit", "--timeline", "--record-expectations", "--har", "--beacons"] {
            let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", option, "/nonexistent-dir/out.file"])
            #expect(run.status == 2, "\(option): \(run.stderr)")
            #expect(run.stderr.contains("\(option) /nonexistent-dir/out.file: cannot write there"), "\(option): \(run.stderr)")
            #expect(!run.stdout.contains(#""kind":"event""#), "\(option): nothing played")
        }
    }

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

    @Test func mediaError_midPlay_firesTheErrorURLWithThePlayheadWherePlaybackStopped_andTheSummaryCountsFrames() async throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let cut = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let tag = try Self.demoTag(folder, replacing: [("file://\(Repo.media("clip-10s-360p.mp4"))", "file://\(cut)")])
        let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--reward-at", "1s"])
        #expect(run.status == 4)
        let error = try #require(run.lines.first { $0["kind"] as? String == "error" })
        let playhead = try #require(error["playhead"] as? Double)
        #expect(playhead > 4.8 && playhead < 5.1, "where the decodable data ends, not the first quartile's 2.5")
        let beacon = try #require(run.lines.first { $0["kind"] as? String == "beacon" && $0["event"] as? String == "error" })
        #expect((beacon["url"] as? String)?.contains("pos=00%3A00%3A0\(String(format: "%.3f", playhead).replacingOccurrences(of: ":", with: "%3A"))") == true,
                "\(beacon["url"] ?? "")")
        let summary = try #require(run.lines.last)
        let frames = try #require(summary["frames"] as? [String: Any])
        #expect((frames["presented"] as? Int ?? 0) > 300, "frames presented before the failure are counted")
        #expect(summary["rewarded"] as? Bool == true, "the 1 s reward was granted before the failure")
        #expect(summary["ending"] as? String == "failed")
    }

    @Test func firstMediaFileMissing_theNextOnePlays_withAWarningAndNoErrorBeacon() async throws {
        let folder = try TemporaryFolder()
        let clip = "file://\(Repo.media("clip-10s-360p.mp4"))"
        let tag = try Self.demoTag(folder, replacing: [(#"bitrate="223" codec="avc1.64001e">\#(clip)</MediaFile>"#,
            #"bitrate="900"><![CDATA[file://\#(folder.url.path)/missing.mp4]]></MediaFile><MediaFile id="second" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223"><![CDATA[\#(clip)]]></MediaFile>"#)])
        #expect(try String(contentsOfFile: tag, encoding: .utf8).contains("missing.mp4"), "the tag was rewritten")
        let run = try await vplay(["--vast", tag, "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stdout.suffix(500))")
        #expect(run.lines.contains { ($0["message"] as? String)?.contains("missing.mp4 cannot be played (VAST 401") == true })
        #expect(!run.lines.contains { $0["kind"] as? String == "beacon" && $0["event"] as? String == "error" })
        let media = run.lines.first { $0["kind"] as? String == "resolved" }?["media"] as? [String: Any]
        #expect(media?["url"] as? String == clip)
        #expect((media?["reason"] as? String)?.contains("→ #2") == true, "the position in the tag")
        let forced = try await vplay(["--vast", tag, "--dry-run", "--json", "--media-file", "1"])
        #expect(forced.status == 4, "a file the user forced is the only one tried")
    }

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
