import Foundation
import Testing
import TestSupport

/// The page a click opens (the video's ClickThrough, the end card's CompanionClickThrough), with its macros expanded
/// for the click's moment, is in the click's event line and in the report, so QA can check the landing page.
@Suite(.hangLimit) struct ClickThroughTests {
    /// The demo tag with landing pages that carry macros, its media made absolute.
    static func tag(in folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo]]", with: "https://example.com/landing?src=video&at=[ADPLAYHEAD]&cb=[CACHEBUSTING]]]")
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo-endcard", with: "https://example.com/landing?src=endcard&at=[ADPLAYHEAD]")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
        return try folder.write("clicks.xml", text)
    }

    @Test func clickEvents_carryTheExpandedLandingPage_inJSONAndReport() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.tag(in: folder)
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

        // The same seed gives the same page.
        let again = try await vplay(["--vast", tag, "--dry-run", "--json", "--seed", "7", "--script", "click@2.5,clickthroughClose@4"])
        #expect(again.lines.first { $0["name"] as? String == "click" }?["clickThrough"] as? String == video)
    }

    /// A click with no ClickThrough opens nothing, and says no page.
    @Test func clickWithoutClickThrough_saysNoPage() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: try Self.tag(in: folder), encoding: .utf8)
            .replacingOccurrences(of: #"<ClickThrough><![CDATA[https://example.com/landing?src=video&at=[ADPLAYHEAD]&cb=[CACHEBUSTING]]]></ClickThrough>"#, with: "")
        let tag = try folder.write("noclick.xml", text)
        let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--script", "click@2"])
        let click = try #require(run.lines.first { $0["name"] as? String == "click" })
        #expect(click["detail"] as? String == "none")
        #expect(click["clickThrough"] == nil)
    }
}
