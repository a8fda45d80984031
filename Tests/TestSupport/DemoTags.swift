import Foundation

/// Variants of the bundled demo tag (`media/demo.xml`) that more than one test target plays, its media made absolute
/// so the tag can live in a temporary folder.
public enum DemoTags {
    /// The demo tag's text with its media as an absolute `file://` URL, so the tag can live in a temporary folder;
    /// with `beaconBase`, its tracking URLs point there instead of `http://127.0.0.1:8089`.
    public static func text(beaconBase: String? = nil) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(Repo.media("clip-10s-360p.mp4"))")
        guard let beaconBase else { return text }
        return text.replacingOccurrences(of: "http://127.0.0.1:8089", with: beaconBase)
    }

    /// Landing pages that carry macros: the video's ClickThrough `[ADPLAYHEAD]` and `[CACHEBUSTING]`, the end card's
    /// `[ADPLAYHEAD]`.
    public static func landingPagesWithMacros(in folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo]]", with: "https://example.com/landing?src=video&at=[ADPLAYHEAD]&cb=[CACHEBUSTING]]]")
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo-endcard", with: "https://example.com/landing?src=endcard&at=[ADPLAYHEAD]")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
        return try folder.write("clicks.xml", text)
    }

    /// Companions, an icon and a verification for a wrapper chain's InLine and each wrapper (`who`), with their
    /// tracking at `base`: pieces for the Linear, the Creatives and the InLine (or Wrapper) of a tag.
    public static func trackingParts(_ who: String, _ base: String) -> (linear: String, creatives: String, inLine: String) {
        let linear = """
            <Icons><Icon program="AdChoices" width="20" height="20"><StaticResource creativeType="image/png">\(base)/\(who)/icon.png</StaticResource>
            <IconClicks><IconClickThrough>https://example.com/adchoices</IconClickThrough><IconClickTracking>\(base)/\(who)/iconclick</IconClickTracking></IconClicks>
            <IconViewTracking>\(base)/\(who)/iconview</IconViewTracking></Icon></Icons>
            """
        let creatives = """
            <Creative><CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">\(base)/\(who)/c.png</StaticResource>
            <TrackingEvents><Tracking event="creativeView">\(base)/\(who)/cv</Tracking></TrackingEvents>
            <CompanionClickTracking>\(base)/\(who)/cct</CompanionClickTracking></Companion></CompanionAds></Creative>
            """
        let inLine = """
            <AdVerifications><Verification vendor="\(who).example-omid"><JavaScriptResource apiFramework="omid" browserOptional="true">\(base)/\(who)/omid.js</JavaScriptResource>
            <TrackingEvents><Tracking event="verificationNotExecuted">\(base)/\(who)/vne?r=[REASON]</Tracking></TrackingEvents></Verification></AdVerifications>
            """
        return (linear, creatives, inLine)
    }
}
