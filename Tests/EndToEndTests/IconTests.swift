import Foundation
import Testing
import TestSupport

/// Issue 15 item 2, what only the process shows: `vplay inspect` prints the icons and when they show. How an icon
/// plays (its offset, its tracking, `iconClick`) is tested in process (`SessionBehaviourTests/IconBehaviourTests`).
@Suite(.hangLimit) struct IconTests {
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

    @Test func inspect_listsTheIconsAndWhenTheyShow() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("inline.xml", Self.inLine("http://127.0.0.1:9"))
        let inspected = try await vplay(["inspect", "--vast", tag, "--no-media"])
        #expect(inspected.stdout.contains("icon 1: AdChoices [inline] 20x20 at 00:00:01.000 for 00:00:02.500"), "\(inspected.stdout)")
    }
}
