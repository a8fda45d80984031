import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// Server-side mode (issue 42, item 1) in process: vplay as the stitcher, the demo's 10 s ad in 2 s segments, the
/// stitcher's beacons stamped with the session time of each segment's request, on the virtual clock.
@Suite struct ServerSideBehaviourTests {
    let kit = SessionKit()

    static func ms(_ beacons: [PlannedBeacon]) -> [Int64] { beacons.map(\.clock.wholeMilliseconds) }

    @Test func justInTimeSegments_fireEachQuartileAtItsSegmentsRequest_aheadOfTheClient() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--ssai", "server", "--segment", "2", "--dry-run"])
        #expect(run.summary.outcome == .completed)
        // Segments 0–2 s, 2–4 s, …: Q1 (2.5 s) in segment 1, asked for at 2 s; the midpoint (5 s) at 4; Q3 (7.5 s) at 6;
        // complete (10 s, in the last segment) at 8.
        #expect(Self.ms(run.beacons("impression")) == [0] && Self.ms(run.beacons("start")) == [0])
        #expect(Self.ms(run.beacons("firstQuartile")) == [2000] && Self.ms(run.beacons("midpoint")) == [4000])
        #expect(Self.ms(run.beacons("thirdQuartile")) == [6000] && Self.ms(run.beacons("complete")) == [8000])
        #expect(Self.ms(run.beacons("progress")) == [2000, 2000])
        // [ADPLAYHEAD] is where the player was when it asked for the segment.
        #expect(run.beacons("midpoint").map(\.url) == [try #require(run.beacons("midpoint").first?.template).replacingOccurrences(of: "[ADPLAYHEAD]", with: "00%3A00%3A04.000")
                                                        .replacingOccurrences(of: "[CACHEBUSTING]", with: try cacheBuster(run.beacons("midpoint")[0].url))])
        // The stitcher sees no pause, mute or click, and does not fire the player's own events.
        #expect(run.beacons("loaded").isEmpty && run.beacons("closeLinear").isEmpty)
        let report = try #require(run.summary.serverSide)
        let leads = report.timings.filter { $0.offset == nil }.map { "\($0.event):\($0.lead?.wholeMilliseconds ?? -1)" }
        #expect(leads == ["impression:0", "creativeView:0", "start:0", "firstQuartile:500", "midpoint:1000", "thirdQuartile:1500", "complete:2000"])
        #expect(report.unseen.isEmpty)
    }

    /// The `cb` value of a URL's query.
    func cacheBuster(_ url: String) throws -> String {
        try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "cb" }?.value)
    }

    @Test func prefetchedSegments_countViewsNoOneSaw_whenTheViewerSkips() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--ssai", "server", "--segment", "2", "--prefetch", "3", "--script", "skip@6", "--dry-run"])
        // Segments 0–3 are asked for at the first frame: Q1, the midpoint and Q3 (7.5 s, segment 3) fire at 0; the
        // last segment at 2 s; the viewer skips at 6.
        #expect(Self.ms(run.beacons("firstQuartile")) == [0] && Self.ms(run.beacons("thirdQuartile")) == [0])
        #expect(Self.ms(run.beacons("complete")) == [2000])
        let report = try #require(run.summary.serverSide)
        #expect(report.unseen.map(\.event) == ["thirdQuartile", "complete"])
        #expect(run.events(.thirdQuartile).isEmpty && run.beacons("skip").isEmpty)
    }

    @Test func aPauseBetweenRequests_movesTheStampsByItsLength() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--ssai", "server", "--segment", "2", "--script", "background@3,foreground@13", "--dry-run"])
        // The midpoint's segment is asked for at playhead 4, which plays at session time 14 (10 s in the background).
        #expect(Self.ms(run.beacons("midpoint")) == [14_000] && Self.ms(run.beacons("firstQuartile")) == [2000])
        #expect(run.beacons("pause").isEmpty && run.beacons("resume").isEmpty)
        #expect(try #require(run.summary.serverSide).timings.first { $0.event == "midpoint" }?.lead == .seconds(1))
    }

    @Test func theServersMacros_areFilled() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", """
            <VAST version="4.1"><Ad id="s"><InLine><AdSystem>s</AdSystem><AdTitle>s</AdTitle>
            <Impression><![CDATA[http://t.example/imp?ss=[SERVERSIDE]&ip=[DEVICEIP]&sua=[SERVERUA]&ua=[DEVICEUA]]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let run = try await kit.run(cli: ["--vast", tag, "--ssai", "server", "--device-ip", "198.51.100.9", "--macro", "DEVICEUA=Roku/DVP-12.0", "--dry-run"])
        let url = try #require(run.beacons("impression").first?.url)
        #expect(url.hasPrefix("http://t.example/imp?ss=1&ip=198.51.100.9&sua=vplay-stitcher%2F"), "\(url)")
        #expect(url.hasSuffix("&ua=Roku%2FDVP-12.0"), "\(url)")
        withExtendedLifetime(folder) {}
    }
}
