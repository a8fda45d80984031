import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// Issue 6: only a process shows the files a run writes: they parse and say what happened. Expectations (pass,
/// fail with a diff, round-trip) are `ExpectationBehaviourTests`, in process.
@Suite struct ReportTests {
    static let script = "background@3,foreground@13,mute@14"

    /// Only a process shows the files a run writes: the report, the JUnit file and the timeline, as written.
    @Test func everyOutputFile_parsesAndSaysWhatHappened() async throws {
        let folder = try TemporaryFolder()
        let path = { (name: String) in folder.url.appendingPathComponent(name).path }
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--script", Self.script, "--now", "0",
                                   "--report", path("report.json"), "--junit", path("junit.xml"), "--timeline", path("timeline.svg"),
                                   "--beacons", path("beacons.jsonl"), "--har", path("run.har"), "--omid-log", path("omid.jsonl")])
        #expect(run.status == 0, "\(run.stderr)")
        // The OM SDK log: one JSON object a line, from the session's start to its finish.
        let omid = try jsonLines(path("omid.jsonl")).compactMap { $0["type"] as? String }
        #expect(omid.first == "sessionStart" && omid.last == "sessionFinish", "\(omid)")
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
}
