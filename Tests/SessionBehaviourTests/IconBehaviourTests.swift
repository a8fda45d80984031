import AdSession
import Foundation
import PlayerEngine
import Testing
import TrackingBeacons
import TestSupport
@testable import vplay

/// Icons (issue 15 item 2): the InLine's AdChoices icon shows at its offset for its duration of played video, its
/// IconViewTracking fires then with the wrapper's tracking-only icon of the same program, and `iconClick` fires its
/// IconClickTracking and opens its IconClickThrough like a click-through (pausing the video while it is open).
@Suite struct IconBehaviourTests {
    static let inLine = """
        <VAST version="4.1"><Ad id="in"><InLine><AdSystem>inline-server</AdSystem><AdTitle>t</AdTitle>
        <Impression><![CDATA[http://t.example/imp]]></Impression>
        <Creatives><Creative><Linear><Duration>00:00:05</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile></MediaFiles>
        <Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top" offset="00:00:01" duration="00:00:02.500">
          <StaticResource creativeType="image/png"><![CDATA[http://t.example/adchoices.png]]></StaticResource>
          <IconClicks><IconClickThrough><![CDATA[https://adchoices.example/info?at=[ADPLAYHEAD]]]></IconClickThrough>
            <IconClickTracking><![CDATA[http://t.example/in/icon/click?at=[ADPLAYHEAD]]]></IconClickTracking></IconClicks>
          <IconViewTracking><![CDATA[http://t.example/in/icon/view?at=[ADPLAYHEAD]]]></IconViewTracking>
        </Icon></Icons>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    static let wrapper = """
        <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>wrapper-server</AdSystem>
        <VASTAdTagURI><![CDATA[https://ads.example/inline.xml]]></VASTAdTagURI>
        <Impression><![CDATA[http://t.example/w/imp]]></Impression>
        <Creatives><Creative><Linear><Icons><Icon program="AdChoices">
          <IconClicks><IconClickTracking><![CDATA[http://t.example/w/icon/click]]></IconClickTracking></IconClicks>
          <IconViewTracking><![CDATA[http://t.example/w/icon/view]]></IconViewTracking>
        </Icon></Icons></Linear></Creative></Creatives></Wrapper></Ad></VAST>
        """

    @Test func icon_showsAtItsOffset_firesItsTracking_andOpensOnIconClick() async throws {
        var kit = SessionKit()
        kit.tag("https://ads.example/wrapper.xml", Self.wrapper)
        kit.tag("https://ads.example/inline.xml", Self.inLine)
        try kit.media("https://ads.example/clip.mp4", clip: "clip-5s-video-only.mp4")
        let run = try await kit.run(cli: ["--vast", "https://ads.example/wrapper.xml",
                                          "--script", "iconClick@0.5,iconClick@2,clickthroughClose@4,iconClick@6"])
        #expect(run.summary.outcome == .completed)
        let shown = try #require(run.events(.iconShown).first), hidden = try #require(run.events(.iconHidden).first)
        #expect(shown.playhead == .seconds(1) && shown.icon == 0, "the first icon (icon 1 in the JSON)")
        // Clicked at 2 (playhead 2), open until 4: the icon's 2.5 s of played video end at playhead 3.5, clock 5.5.
        #expect(hidden.playhead == .milliseconds(3500) && hidden.clock == .milliseconds(5500))
        #expect(run.events(.iconClick).map(\.clickThroughURL) == ["https://adchoices.example/info?at=00%3A00%3A02.000"])
        #expect(run.events(.pause).first?.detailText == "clickThrough")
        #expect(run.events(.rejected).compactMap(\.detailText) == ["iconClick: no icon is showing", "iconClick: no icon is showing"],
                "before it shows and after it went")
        #expect(run.beacons("icon.viewTracking").map(\.url) == ["http://t.example/w/icon/view", "http://t.example/in/icon/view?at=00%3A00%3A01.000"]
                || run.beacons("icon.viewTracking").map(\.url) == ["http://t.example/in/icon/view?at=00%3A00%3A01.000", "http://t.example/w/icon/view"])
        #expect(Set(run.beacons("icon.clickTracking").map(\.url)) == ["http://t.example/w/icon/click", "http://t.example/in/icon/click?at=00%3A00%3A02.000"])
        #expect(run.beacons("icon.clickTracking").allSatisfy { $0.clock == .seconds(2) } && run.beacons("icon.viewTracking").allSatisfy { $0.clock == .seconds(1) })
    }

    /// What `vplay inspect` prints of the icons: each one and when it shows.
    @Test func inspect_listsTheIconsAndWhenTheyShow() async throws {
        let folder = try TemporaryFolder()
        let inspection = try await SessionKit().inspect(cli: ["inspect", "--vast", try folder.write("inline.xml", Self.inLine), "--no-media"])
        let text = InspectRendering.text(inspection)
        #expect(text.contains("icon 1: AdChoices [inline] 20x20 at 00:00:01.000 for 00:00:02.500"), "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(InspectRendering.json(inspection).text.utf8)) as? [String: Any])
        let icon = try #require((object["icons"] as? [[String: Any]])?.first, "\(object.keys.sorted())")
        #expect(icon["program"] as? String == "AdChoices" && icon["source"] as? String == "inline" && icon["offset"] as? Double == 1
                && icon["duration"] as? Double == 2.5 && icon["width"] as? Int == 20, "\(icon)")
    }
}
