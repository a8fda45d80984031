import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 15 item 2, end to end over loopback: the InLine's AdChoices icon shows at its offset for its duration, its
/// IconViewTracking fires then (with the wrapper's tracking-only icon of the same program), and `iconClick` fires its
/// IconClickTracking and opens its IconClickThrough like a click-through. Every beacon goes to a real server.
@Suite(.timeLimit(.minutes(3))) struct IconTests {
    static func inLine(_ base: String) -> String {
        """
        <VAST version="4.1"><Ad id="in"><InLine><AdSystem>inline-server</AdSystem><AdTitle>t</AdTitle>
        <Impression><![CDATA[\(base)/imp]]></Impression>
        <Creatives><Creative><Linear><Duration>00:00:05</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile></MediaFiles>
        <Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top" offset="00:00:01" duration="00:00:02.500">
          <StaticResource creativeType="image/png"><![CDATA[\(base)/adchoices.png]]></StaticResource>
          <IconClicks><IconClickThrough><![CDATA[https://adchoices.example/info?at=[ADPLAYHEAD]]]></IconClickThrough>
            <IconClickTracking><![CDATA[\(base)/in/icon/click?at=[ADPLAYHEAD]]]></IconClickTracking></IconClicks>
          <IconViewTracking><![CDATA[\(base)/in/icon/view?at=[ADPLAYHEAD]]]></IconViewTracking>
        </Icon></Icons>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    static func wrapper(_ base: String) -> String {
        """
        <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>wrapper-server</AdSystem>
        <VASTAdTagURI><![CDATA[\(base)/inline.xml]]></VASTAdTagURI>
        <Impression><![CDATA[\(base)/w/imp]]></Impression>
        <Creatives><Creative><Linear><Icons><Icon program="AdChoices">
          <IconClicks><IconClickTracking><![CDATA[\(base)/w/icon/click]]></IconClickTracking></IconClicks>
          <IconViewTracking><![CDATA[\(base)/w/icon/view]]></IconViewTracking>
        </Icon></Icons></Linear></Creative></Creatives></Wrapper></Ad></VAST>
        """
    }

    @Test func icon_showsAtItsOffset_firesItsTracking_andOpensOnIconClick() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let box = Box()
        let server = try ScriptedHTTPServer { target in
            if target == "/inline.xml" { return .body(Data(box.text.withLock { $0 }.utf8), contentType: "application/xml") }
            return target == "/clip.mp4" ? .file(clip) : .status(204)
        }
        defer { server.stop() }
        box.text.withLock { $0 = Self.inLine(server.baseURL) }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", Self.wrapper(server.baseURL))

        let run = try await vplay(["--vast", tag, "--json", "--script", "iconClick@0.5,iconClick@2,clickthroughClose@4,iconClick@6"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let events = run.lines.filter { $0["kind"] as? String == "event" }
        func event(_ name: String) -> [[String: Any]] { events.filter { $0["name"] as? String == name } }
        let shown = try #require(event("iconShown").first), hidden = try #require(event("iconHidden").first)
        #expect(shown["playhead"] as? Double == 1.0 && shown["icon"] as? Int == 1)
        // Clicked at 2 (playhead 2), open until 4: the icon's 2.5 s of played video end at playhead 3.5, clock 5.5.
        #expect(hidden["playhead"] as? Double == 3.5 && hidden["clock"] as? Double == 5.5)
        let clicks = event("iconClick")
        #expect(clicks.count == 1 && clicks.first?["clickThrough"] as? String == "https://adchoices.example/info?at=00%3A00%3A02.000")
        #expect(event("pause").first?["detail"] as? String == "clickThrough")
        let refused = event("rejected").compactMap { $0["detail"] as? String }
        #expect(refused == ["iconClick: no icon is showing", "iconClick: no icon is showing"], "before it shows and after it went")

        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        let views = beacons.filter { $0["event"] as? String == "icon.viewTracking" }.compactMap { $0["url"] as? String }
        // Beacon lines come as their answers do: compared as sets.
        #expect(Set(views) == ["\(server.baseURL)/w/icon/view", "\(server.baseURL)/in/icon/view?at=00%3A00%3A01.000"] && views.count == 2)
        let iconClicks = beacons.filter { $0["event"] as? String == "icon.clickTracking" }.compactMap { $0["url"] as? String }
        #expect(Set(iconClicks) == ["\(server.baseURL)/w/icon/click", "\(server.baseURL)/in/icon/click?at=00%3A00%3A02.000"] && iconClicks.count == 2)
        #expect(beacons.allSatisfy { $0["status"] as? Int == 204 }, "every beacon reached the server")
        let targets = server.requests().map(\.target)
        #expect(targets.filter { $0.contains("/icon/") }.count == 4, "\(targets)")
    }

    @Test func inspect_listsTheIconsAndWhenTheyShow() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("inline.xml", Self.inLine("http://127.0.0.1:9"))
        let inspected = try await vplay(["inspect", "--vast", tag, "--no-media"])
        #expect(inspected.stdout.contains("icon 1: AdChoices [inline] 20x20 at 00:00:01.000 for 00:00:02.500"), "\(inspected.stdout)")
    }
}

/// The tag a server returns, written once its port is known.
private final class Box: Sendable {
    let text = Mutex("")
}
