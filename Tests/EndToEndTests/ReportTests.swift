import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// Issue 6: the files a run writes parse and say what happened; expectations pass, fail with a diff, round-trip.
@Suite struct ReportTests {
    static let script = "background@3,foreground@13,mute@14"

    @Test func everyOutputFile_parsesAndSaysWhatHappened() async throws {
        let folder = try TemporaryFolder()
        let path = { (name: String) in folder.url.appendingPathComponent(name).path }
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--script", Self.script, "--now", "0",
                                   "--report", path("report.json"), "--junit", path("junit.xml"), "--timeline", path("timeline.svg"),
                                   "--beacons", path("beacons.jsonl"), "--har", path("run.har")])
        #expect(run.status == 0, "\(run.stderr)")
        // The report: the whole session.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("report.json")))) as? [String: Any])
        #expect((report["chain"] as? [[String: Any]])?.count == 1)
        #expect(((report["resolved"] as? [String: Any])?["media"] as? [String: Any])?["url"] as? String == "clip-10s-360p.mp4")
        let events = try #require(report["events"] as? [[String: Any]])
        #expect(events.first { $0["name"] as? String == "midpoint" }?["clock"] as? Double == 15.0)
        #expect((report["beacons"] as? [Any])?.count == 15)
        #expect((report["reconciliation"] as? [String: Any])?["matched"] as? Int == 15)
        #expect((report["summary"] as? [String: Any])?["outcome"] as? String == "completed")
        // JUnit: well-formed XML with the default checks, all passing.
        let junit = try LeakSanitizer.ignore(XMLDocument(contentsOf: URL(fileURLWithPath: path("junit.xml"))))
        let cases = try junit.nodes(forXPath: "//testcase")
        #expect(cases.count == 4, "plays without error, ran to its end, beacons delivered, beacons received")
        #expect(try junit.nodes(forXPath: "//failure").isEmpty)
        // The timeline: well-formed SVG with the shaded background span and the event markers.
        let svg = try LeakSanitizer.ignore(XMLDocument(contentsOf: URL(fileURLWithPath: path("timeline.svg"))))
        #expect(svg.rootElement()?.name == "svg")
        let text = try String(contentsOfFile: path("timeline.svg"), encoding: .utf8)
        #expect(text.contains(">paused: inactive + background</text>") && text.contains(">midpoint</text>") && text.contains("<polyline"))
        #expect(try svg.nodes(forXPath: "//*[local-name()='rect']").count >= 1 + 1 + 15, "background, the pause span, one bar per beacon")
    }

    @Test func goldenFile_roundTrips_andABrokenToleranceFailsWithExit1AndADiffNamingTheEvent() async throws {
        let folder = try TemporaryFolder()
        let golden = folder.url.appendingPathComponent("golden.json").path
        let record = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", Self.script, "--record-expectations", golden])
        #expect(record.status == 0)
        let same = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", Self.script, "--expect", golden, "--seed", "99", "--json"])
        #expect(same.status == 0, "templates, not expanded URLs, so another seed still matches")
        let verdict = try #require(same.lines.first { $0["kind"] as? String == "expectations" })
        #expect(verdict["failed"] as? Int == 0 && (verdict["passed"] as? Int ?? 0) > 40)
        // Coming back one second later moves every later event by 1 s: over the 1 ms tolerance.
        let late = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "background@3,foreground@14,mute@15", "--expect", golden])
        #expect(late.status == 1)
        #expect(late.stdout.contains("✗ midpoint at playhead 5.000 s, clock 15.000 s ±0.001 s: was at clock 16.000 s (off by +1.000 s)"))
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
        let pass = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "close@6", "--expect", file])
        #expect(pass.status == 0, "\(pass.stdout)")
        let fail = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--expect", file, "--json"])
        #expect(fail.status == 1)
        let results = try #require(fail.lines.first { $0["kind"] as? String == "expectations" }?["results"] as? [[String: Any]])
        let failed = results.filter { $0["passed"] as? Bool == false }.compactMap { $0["expectation"] as? String }
        #expect(failed == ["no reward", "ending closedEarly"])
    }

    @Test func expectedError_passesWithExit0() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("empty.xml", #"<VAST version="4.1"></VAST>"#)
        let file = try folder.write("expect.json", #"{"errorCode": 303, "events": [{"name": "impression", "count": 0}]}"#)
        let run = try await vplay(["--vast", tag, "--dry-run", "--expect", file])
        #expect(run.status == 0)
        let wrong = try folder.write("wrong.json", #"{"errorCode": 0}"#)
        #expect(try await vplay(["--vast", tag, "--dry-run", "--expect", wrong]).status == 1)
    }
}
