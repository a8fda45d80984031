import Foundation
import Testing
import TestSupport

/// Issue 15 item 1: a wrapper's companion does not take the end card away from the InLine's. The InLine's
/// `renderingMode="end-card"` companion is shown, its creativeView and CompanionClickTracking fire, and so do those of
/// the wrapper's companion for the same slot; a wrapper companion for another slot is not shown and fires nothing.
/// The InLine comes over loopback HTTP, as a wrapper's VASTAdTagURI points at it.
@Suite(.hangLimit) struct EndCardThroughWrappersTests {
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

    static func wrapper(_ base: String) -> String {
        """
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
    }

    /// The InLine's only companion says no renderingMode: it is still the end card, not the wrapper's (which came
    /// first in merge order and was shown before).
    @Test func inLineCompanionWithoutRenderingMode_stillBeatsTheWrappers() async throws {
        let plain = Self.inLine.replacingOccurrences(of: #" renderingMode="end-card""#, with: "")
        let start = try #require(plain.range(of: #"<Companion id="in-banner""#)), end = try #require(plain.range(of: #"<Companion id="in-card""#))
        let inLine = plain.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
        let clip = Repo.media("clip-5s-video-only.mp4")
        let server = try ScriptedHTTPServer { target in
            if target == "/inline.xml" { return .body(Data(inLine.utf8), contentType: "application/xml") }
            return target == "/clip.mp4" ? .file(clip) : .status(404)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", Self.wrapper(server.baseURL))
        let run = try await vplay(["--vast", tag, "--dry-run", "--json"])
        let views = run.lines.filter { $0["kind"] as? String == "beacon" && $0["event"] as? String == "companion.creativeView" }
        #expect(views.compactMap { $0["url"] as? String } == ["http://127.0.0.1:9/w/card/view", "http://127.0.0.1:9/in/card/view"], "\(views)")
        let inspected = try await vplay(["inspect", "--vast", tag])
        #expect(inspected.stdout.contains("end card: companion in-card [inline] 390x844"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("the InLine's first companion with a resource"), "\(inspected.stdout)")
    }

    @Test func inLineEndCard_isShown_withTheMatchingWrapperCompanionsTracking() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let server = try ScriptedHTTPServer { target in
            if target == "/inline.xml" { return .body(Data(Self.inLine.utf8), contentType: "application/xml") }
            return target == "/clip.mp4" ? .file(clip) : .status(404)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", Self.wrapper(server.baseURL))

        let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--script", "endcardClick@6,clickthroughClose@7,close@8"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        func urls(_ event: String) -> [String] { beacons.filter { $0["event"] as? String == event }.compactMap { $0["url"] as? String } }
        #expect(urls("companion.creativeView") == ["http://127.0.0.1:9/w/card/view", "http://127.0.0.1:9/in/card/view"],
                "the InLine's end card, with the wrapper's companion for the same slot, outermost first")
        #expect(urls("companion.clickTracking") == ["http://127.0.0.1:9/w/card/click", "http://127.0.0.1:9/in/card/click"])
        let click = try #require(run.lines.first { $0["name"] as? String == "endCardClick" })
        #expect(click["clickThrough"] as? String == "https://landing.example/inline-card?at=00%3A00%3A05.000", "the InLine's page opens")

        let inspected = try await vplay(["inspect", "--vast", tag, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        let card = try #require(document["endCard"] as? [String: Any])
        #expect(card["id"] as? String == "in-card" && card["source"] as? String == "inline")
        #expect((card["reason"] as? String)?.contains("renderingMode=\"end-card\"") == true, "\(card)")
        #expect((card["matching"] as? [[String: Any]])?.map { $0["id"] as? String } == ["w-card"])
        let text = try await vplay(["inspect", "--vast", tag])
        #expect(text.stdout.contains("end card: companion in-card [inline] 390x844"), "\(text.stdout)")
    }
}
