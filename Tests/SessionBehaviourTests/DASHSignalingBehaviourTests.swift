import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// The DASH form of SVTA2053 signalling (issue 42, item 3) in process: a manifest written here whose EventStream
/// signals ads stitched into its periods, played as a client-side tracking document on a virtual clock, so every
/// beacon's session time is exact.
@Suite struct DASHSignalingBehaviourTests {
    static let url = "https://stream.example/live/manifest.mpd"

    static func slot(_ name: String, start: Double = 0, duration: Double) -> String {
        let tracking = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
            #"{"type":"\#($0)","urls":["https://t.example/\#(name)/\#($0)?ap=[ADPLAYHEAD]&cp=[CONTENTPLAYHEAD]"]}"#
        }
        return #"{"type":"linear","start":\#(start),"duration":\#(duration),"identifiers":[{"scheme":"ad-id.org","value":"\#(name)"}],"tracking":[\#(tracking.joined(separator: ","))]}"#
    }

    /// Two periods (the second from 60 s): a pod of two 5 s slots at 12 s (JSON in the event; each slot's `start` its
    /// offset in the pod), and a single slot 5 s
    /// into the second period (base64 in `messageData`, timescale 90 kHz with a presentation time offset).
    static func manifest(extra: String = "") -> String {
        let pod = #"{"version":1,"type":"pod","payload":[{"start":0,"duration":10,"tracking":[{"type":"podStart","urls":["https://t.example/pod/start?bp=[BREAKPOSITION]"]},{"type":"podEnd","urls":["https://t.example/pod/end"]}],"slots":[\#(slot("a", duration: 5)),\#(slot("b", start: 5, duration: 5))]}]}"#
        let single = Data(#"{"payload":[\#(slot("c", duration: 4))]}"#.utf8).base64EncodedString()
        return """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT90S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
              <Period id="p1" start="PT0S" duration="PT60S">
                <EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="1000">
                  <Event presentationTime="12000" duration="10000" id="mid"><![CDATA[\(pod)]]></Event>
                </EventStream>
                <AdaptationSet mimeType="video/mp4"/>
              </Period>
              <Period id="p2" start="PT60S">
                <EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="90000" presentationTimeOffset="900000">
                  <Event presentationTime="1350000" id="late" messageData="\(single)"/>
                </EventStream>
                <EventStream schemeIdUri="urn:scte:scte35:2013:xml"><Event presentationTime="0"/></EventStream>\(extra)
              </Period>
            </MPD>
            """
    }

    @Test func eachSignalledSlot_isAnAdAtItsEventsTime_andItsTrackingFiresWhereItsTypeFalls() async throws {
        var kit = SessionKit()
        kit.tag(Self.url, Self.manifest())
        let run = await kit.runTrackedStream(kit.configuration(Self.url, dryRun: true))
        #expect(run.summary.outcome == .completed, "\(run.summary)")
        let ms = { (event: String) in run.beacons(event).map(\.clock.wholeMilliseconds) }
        // The pod at 12 s: a 12–17, b 17–22; the single slot at 60 + (1,350,000 − 900,000) / 90,000 = 65 s, 4 s long.
        #expect(ms("impression") == [12_000, 17_000, 65_000])
        #expect(ms("firstQuartile") == [13_250, 18_250, 66_000])
        #expect(ms("complete") == [17_000, 22_000, 69_000])
        #expect(ms("breakStart") == [12_000] && ms("breakEnd") == [22_000])
        #expect(run.beacons("midpoint").map(\.url) == [
            "https://t.example/a/midpoint?ap=00%3A00%3A02.500&cp=00%3A00%3A14.500", "https://t.example/b/midpoint?ap=00%3A00%3A02.500&cp=00%3A00%3A19.500",
            "https://t.example/c/midpoint?ap=00%3A00%3A02.000&cp=00%3A01%3A07.000",
        ])
        let report = try #require(run.summary.tracking)
        // The manifest says how long the stream is: nothing assumed.
        #expect(report.streamDuration == .seconds(90) && report.findings.isEmpty, "\(report.findings)")
        #expect(report.avails.map(\.availID) == ["mid", "late"])
    }

    @Test func aHostileManifest_isRefusedWithItsReason_andNothingFires() async throws {
        let many = (0..<1001).map { #"<Event presentationTime="\#($0)">{"payload":[{"start":0,"duration":1}]}</Event>"# }.joined()
        let cases: [(String, String)] = [
            (#"<?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY x SYSTEM "file:///etc/passwd">]><MPD>&x;</MPD>"#, "cannot be read"),
            (Self.manifest(extra: #"<EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="0"><Event/></EventStream>"#), "timescale is not a positive"),
            (Self.manifest(extra: #"<EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling">\#(many)</EventStream>"#), "more than 1000 events"),
            (Self.manifest(extra: #"<EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling"><Event presentationTime="999999999">{"payload":[]}</Event></EventStream>"#), "is not a time within a day"),
            (Self.manifest(extra: #"<EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling"><Event id="z">{"payload":[{"start":0}]}</Event></EventStream>"#), "Event z: slot 1 has no duration"),
            (#"<MPD><Period/></MPD>"#, "has no EventStream of urn:svta:advertising-wg:ad-creative-signaling"),
        ]
        for (manifest, words) in cases {
            var kit = SessionKit()
            kit.tag(Self.url, manifest)
            let run = await kit.runTrackedStream(kit.configuration(Self.url, dryRun: true))
            let error = try #require(run.summary.tracking?.documentError, "\(words)")
            #expect(error.message.contains(words), "\(error.message)")
            #expect(run.planned.isEmpty)
        }
    }

    @Test func givenAsInterstitials_aManifestIsSentToTrackingDoc() async throws {
        var kit = SessionKit()
        kit.tag(Self.url, Self.manifest())
        let run = await kit.runVMAP(kit.configuration(Self.url), mode: .interstitials)
        #expect(run.summary.vmap?.documentError?.message.contains("play it with --tracking-doc") == true)
    }

    /// A manifest is told by its first character and its root, not by "<MPD" anywhere: a MediaTailor document whose
    /// URL holds the text stays JSON.
    @Test func aManifestIsXMLWithAnMPDRoot_notJSONThatMentionsOne() {
        #expect(DASHSignaling.isManifest(Data("\u{FEFF}\n  <?xml version=\"1.0\"?><MPD/>".utf8)))
        #expect(!DASHSignaling.isManifest(Data(#"{"avails":[],"note":"<MPD type=static>"}"#.utf8)))
        #expect(!DASHSignaling.isManifest(Data("<VAST version=\"4.1\"/>".utf8)))
    }
}

