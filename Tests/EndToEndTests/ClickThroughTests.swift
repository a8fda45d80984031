import Foundation
import Testing
import TestSupport

/// The page a click opens (the video's ClickThrough, the end card's CompanionClickThrough), with its macros expanded
/// for the click's moment, is in the click's event line and in the report, so QA can check the landing page. Only a
/// process shows its JSON line and the report file; the pages themselves are `ClickThroughBehaviourTests`.
@Suite(.hangLimit) struct ClickThroughTests {
    /// Only a process shows the click's event line on stdout and the report file, each with the landing page.
    @Test func clickEvents_carryTheExpandedLandingPage_inJSONAndReport() async throws {
        let folder = try TemporaryFolder()
        let tag = try DemoTags.landingPagesWithMacros(in: folder)
        let report = folder.url.appendingPathComponent("report.json").path
        let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--seed", "7", "--report", report,
                                   "--script", "click@2.5,clickthroughClose@4,endcardClick@+9,clickthroughClose@+1,close@+1"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let events = run.lines.filter { $0["kind"] as? String == "event" }
        let click = try #require(events.first { $0["name"] as? String == "click" })
        let video = try #require(click["clickThrough"] as? String)
        #expect(video.hasPrefix("https://example.com/landing?src=video&at=00%3A00%3A02.500&cb="), "\(video)")
        let cb = try #require(URLComponents(string: video)?.queryItems?.first { $0.name == "cb" }?.value)
        #expect(cb.count == 8 && cb.allSatisfy(\.isNumber), "[CACHEBUSTING] expanded: \(video)")
        let endCard = try #require(events.first { $0["name"] as? String == "endCardClick" })
        // The end card shows at the playhead 10 s (the video completed); its click's playhead is still 10 s.
        #expect(endCard["clickThrough"] as? String == "https://example.com/landing?src=endcard&at=00%3A00%3A10.000")
        #expect(events.filter { $0["clickThrough"] != nil }.count == 2, "only the clicks that opened a page say one")

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let reported = (document["events"] as? [[String: Any]] ?? []).compactMap { $0["clickThrough"] as? String }
        #expect(reported == [video, "https://example.com/landing?src=endcard&at=00%3A00%3A10.000"])
    }
}
