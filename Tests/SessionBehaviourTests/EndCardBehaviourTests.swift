import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
@testable import vplay

/// Issue 15 item 1, in process: a wrapper's companion does not take the end card away from the InLine's. The InLine's
/// `renderingMode="end-card"` companion is shown, its creativeView and CompanionClickTracking fire, and so do those of
/// the wrapper's companion for the same slot; a wrapper companion for another slot is not shown and fires nothing.
/// The kit answers the InLine from memory, where the wrapper's VASTAdTagURI points.
@Suite struct EndCardBehaviourTests {
    static let base = "https://ads.example"
    static let inLine = """
        <VAST version="4.1"><Ad id="in"><InLine><AdSystem>inline-server</AdSystem><AdTitle>t</AdTitle>
        <Impression><![CDATA[http://127.0.0.1:9/in/imp]]></Impression>
        <Creatives><Creative><Linear><Duration>00:00:05</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile></MediaFiles>
        </Linear></Creative>
        <Creative><CompanionAds>
          <Companion id="in-banner" width="300" height="250"><StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:9/in/banner.png]]></StaticResource>
            <TrackingEvents><Tracking event="creativeView"><![CDATA[http://127.0.0.1:9/in/banner/view]]></Tracking></TrackingEvents></Companion>
          <Companion id="in-card" width="390" height="844" renderingMode="end-card"><StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:9/in/card.png]]></StaticResource>
            <TrackingEvents><Tracking event="creativeView"><![CDATA[http://127.0.0.1:9/in/card/view]]></Tracking></TrackingEvents>
            <CompanionClickThrough><![CDATA[https://landing.example/inline-card?at=[ADPLAYHEAD]]]></CompanionClickThrough>
            <CompanionClickTracking><![CDATA[http://127.0.0.1:9/in/card/click]]></CompanionClickTracking></Companion>
        </CompanionAds></Creative></Creatives></InLine></Ad></VAST>
        """

    static let wrapper = """
        <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>wrapper-server</AdSystem>
        <VASTAdTagURI><![CDATA[\(base)/inline.xml]]></VASTAdTagURI>
        <Impression><![CDATA[http://127.0.0.1:9/w/imp]]></Impression>
        <Creatives><Creative><CompanionAds>
          <Companion id="w-card" width="390" height="844"><StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:9/w/card.png]]></StaticResource>
            <TrackingEvents><Tracking event="creativeView"><![CDATA[http://127.0.0.1:9/w/card/view]]></Tracking></TrackingEvents>
            <CompanionClickThrough><![CDATA[https://landing.example/wrapper-card]]></CompanionClickThrough>
            <CompanionClickTracking><![CDATA[http://127.0.0.1:9/w/card/click]]></CompanionClickTracking></Companion>
          <Companion id="w-leader" width="728" height="90"><StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:9/w/leader.png]]></StaticResource>
            <TrackingEvents><Tracking event="creativeView"><![CDATA[http://127.0.0.1:9/w/leader/view]]></Tracking></TrackingEvents>
            <CompanionClickTracking><![CDATA[http://127.0.0.1:9/w/leader/click]]></CompanionClickTracking></Companion>
        </CompanionAds></Creative></Creatives></Wrapper></Ad></VAST>
        """

    /// A kit answering `inLine` at the wrapper's target, and the wrapper written to `folder` (which the caller keeps: a
    /// folder is removed when released).
    static func kit(_ inLine: String, _ folder: TemporaryFolder) throws -> (SessionKit, tag: String) {
        var kit = SessionKit()
        try kit.media("\(base)/clip.mp4", clip: "clip-5s-video-only.mp4")
        kit.tag("\(base)/inline.xml", inLine)
        return (kit, try folder.write("wrapper.xml", wrapper))
    }

    /// The InLine's only companion says no renderingMode: it is still the end card, not the wrapper's (which came
    /// first in merge order and was shown before).
    @Test func inLineCompanionWithoutRenderingMode_stillBeatsTheWrappers() async throws {
        let plain = Self.inLine.replacingOccurrences(of: #" renderingMode="end-card""#, with: "")
        let start = try #require(plain.range(of: #"<Companion id="in-banner""#)), end = try #require(plain.range(of: #"<Companion id="in-card""#))
        let folder = try TemporaryFolder()
        let (kit, tag) = try Self.kit(plain.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: ""), folder)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        #expect(run.summary.outcome == .completed, "\(run.errors) \(run.warnings)")
        #expect(run.beacons("companion.creativeView").map(\.url) == ["http://127.0.0.1:9/w/card/view", "http://127.0.0.1:9/in/card/view"])
        #expect(run.beacons("companion.creativeView").map(\.clock) == [.seconds(5), .seconds(5)], "shown when the video completes")
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag])
        let text = InspectRendering.text(inspection)
        #expect(text.contains("end card: companion in-card [inline] 390x844"), "\(text)")
        #expect(inspection.endCard?.reason.contains("the InLine's first companion with a resource") == true, "\(String(describing: inspection.endCard))")
    }

    @Test func inLineEndCard_isShown_withTheMatchingWrapperCompanionsTracking() async throws {
        let folder = try TemporaryFolder()
        let (kit, tag) = try Self.kit(Self.inLine, folder)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--script", "endcardClick@6,clickthroughClose@7,close@8"])
        #expect(run.summary.outcome == .completed, "\(run.errors) \(run.warnings)")
        #expect(run.beacons("companion.creativeView").map(\.url) == ["http://127.0.0.1:9/w/card/view", "http://127.0.0.1:9/in/card/view"],
                "the InLine's end card, with the wrapper's companion for the same slot, outermost first")
        #expect(run.beacons("companion.clickTracking").map(\.url) == ["http://127.0.0.1:9/w/card/click", "http://127.0.0.1:9/in/card/click"])
        #expect(run.beacons("companion.clickTracking").map(\.clock) == [.seconds(6), .seconds(6)])
        let click = try #require(run.events(.endCardClick).first)
        #expect(click.clickThroughURL == "https://landing.example/inline-card?at=00%3A00%3A05.000", "the InLine's page opens")

        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag, "--json"])
        let card = try #require(inspection.endCard)
        #expect(card.companion.value.id == "in-card" && card.companion.source == .inline)
        #expect(card.reason.contains("renderingMode=\"end-card\""), "\(card.reason)")
        #expect(card.matching.map(\.value.id) == ["w-card"])
        #expect(InspectRendering.text(inspection).contains("end card: companion in-card [inline] 390x844"))
    }
}

/// The page a click opens (the video's ClickThrough, the end card's CompanionClickThrough), with its macros expanded
/// for the click's moment, in process. That the event line and the report file carry it is `ClickThroughTests`.
@Suite struct ClickThroughBehaviourTests {
    let kit = SessionKit()

    @Test func clicks_carryTheExpandedLandingPage_theSameForTheSameSeed() async throws {
        let folder = try TemporaryFolder()
        let tag = try DemoTags.landingPagesWithMacros(in: folder)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--seed", "7",
                                          "--script", "click@2.5,clickthroughClose@4,endcardClick@+9,clickthroughClose@+1,close@+1"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        let click = try #require(run.events(.click).first)
        #expect(click.clock == .milliseconds(2500))
        let video = try #require(click.clickThroughURL)
        #expect(video.hasPrefix("https://example.com/landing?src=video&at=00%3A00%3A02.500&cb="), "\(video)")
        let cb = try #require(URLComponents(string: video)?.queryItems?.first { $0.name == "cb" }?.value)
        #expect(cb.count == 8 && cb.allSatisfy(\.isNumber), "[CACHEBUSTING] expanded: \(video)")
        // The end card shows at the playhead 10 s (the video completed); its click's playhead is still 10 s.
        #expect(run.events(.endCardClick).map(\.clickThroughURL) == ["https://example.com/landing?src=endcard&at=00%3A00%3A10.000"])
        #expect(run.events.filter { $0.clickThroughURL != nil }.count == 2, "only the clicks that opened a page say one")
        let again = try await kit.run(cli: ["--vast", tag, "--dry-run", "--seed", "7", "--script", "click@2.5,clickthroughClose@4"])
        #expect(again.events(.click).first?.clickThroughURL == video)
    }

    /// A click with no ClickThrough opens nothing, and says no page.
    @Test func clickWithoutClickThrough_saysNoPage() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: try DemoTags.landingPagesWithMacros(in: folder), encoding: .utf8)
            .replacingOccurrences(of: #"<ClickThrough><![CDATA[https://example.com/landing?src=video&at=[ADPLAYHEAD]&cb=[CACHEBUSTING]]]></ClickThrough>"#, with: "")
        let run = try await kit.run(cli: ["--vast", try folder.write("noclick.xml", text), "--dry-run", "--script", "click@2"])
        let click = try #require(run.events(.click).first)
        #expect(click.detailText == "none" && click.clickThroughURL == nil, "\(click)")
    }
}
