import AdSession
import Foundation
import PlayerEngine
import Testing
import TrackingBeacons
import TestSupport
@testable import vplay

/// Viewability (issue 18): `<ViewableImpression>` decided by the MRC rule for video (50 % of the pixels in view for 2
/// continuous seconds of play) on the scripted geometry, the InLine's and the wrapper's URLs fired together at the
/// moment it is decided. The repo's media/viewability.xml is the InLine, behind a wrapper with URLs of its own.
@Suite struct ViewabilityBehaviourTests {
    static let wrapper = """
        <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
        <VASTAdTagURI><![CDATA[https://ads.example/inline.xml]]></VASTAdTagURI>
        <Impression><![CDATA[http://127.0.0.1:9/w/imp]]></Impression>
        <ViewableImpression><Viewable><![CDATA[http://127.0.0.1:9/w/viewable]]></Viewable>
          <NotViewable><![CDATA[http://127.0.0.1:9/w/notViewable]]></NotViewable></ViewableImpression>
        </Wrapper></Ad></VAST>
        """

    func kit() throws -> SessionKit {
        var kit = SessionKit()
        kit.tag("https://ads.example/wrapper.xml", Self.wrapper)
        kit.tag("https://ads.example/inline.xml", try String(contentsOfFile: Repo.media("viewability.xml"), encoding: .utf8))
        try kit.media("https://ads.example/clip-10s-360p.mp4", clip: "clip-10s-360p.mp4")
        return kit
    }

    func viewability(_ run: SessionRun) -> [PlannedBeacon] {
        run.planned.filter { ["viewable", "notViewable", "viewUndetermined"].contains($0.event) }
    }

    @Test func viewable_firesInlineAndWrapperURLsTogether_afterTwoSecondsOfPlayInView() async throws {
        // In the background from 1.5 s to 10 s of the session clock: two seconds of play in view end at playhead 3.5.
        let run = try await kit().run(cli: ["--vast", "https://ads.example/wrapper.xml", "--script", "background@1.5,foreground@10"])
        #expect(run.summary.outcome == .completed)
        #expect(viewability(run).map(\.url) == ["http://127.0.0.1:9/w/viewable", "http://127.0.0.1:8089/viewable?pos=00%3A00%3A03.500"])
        #expect(viewability(run).allSatisfy { $0.clock == .seconds(12) && $0.playhead == .milliseconds(3500) }, "at the same moment")
        #expect(run.events(.viewable).map(\.clock) == [.seconds(12)])
    }

    @Test func neverInView_isNotViewable_atTheEnd() async throws {
        let run = try await kit().run(cli: ["--vast", "https://ads.example/wrapper.xml", "--script", "viewport@0=40"])
        #expect(viewability(run).map(\.url) == ["http://127.0.0.1:9/w/notViewable", "http://127.0.0.1:8089/notViewable?pos=00%3A00%3A10.000"])
    }

    @Test func undetermined_firesOnlyTheInLinesURL_andOffFiresNone() async throws {
        let undetermined = try await kit().run(cli: ["--vast", "https://ads.example/wrapper.xml", "--viewability", "undetermined", "--script", "close@4"])
        #expect(viewability(undetermined).map(\.url) == ["http://127.0.0.1:8089/viewUndetermined?pos=00%3A00%3A04.000"], "the wrapper has none")
        let off = try await kit().run(cli: ["--vast", "https://ads.example/wrapper.xml", "--viewability", "off"])
        #expect(off.summary.outcome == .completed && viewability(off).isEmpty)
        #expect(off.events(.viewable).isEmpty && off.events(.notViewable).isEmpty && off.events(.viewUndetermined).isEmpty)
    }

    /// Without `--verification-probe` or an allow list every verification is not executed with reason 2 (not
    /// supported). Which scripts a probe fetches is `ViewabilityEndToEndTests`, against a real server.
    @Test func withoutAProbe_everyVerificationIsReason2() async throws {
        let kit = SessionKit()
        let run = try await kit.run(cli: ["--vast", "media/viewability.xml", "--dry-run"])
        #expect(run.summary.outcome == .completed)
        let reasons = run.beacons("verificationNotExecuted").map { URLComponents(string: $0.url)?.queryItems?.first { $0.name == "reason" }?.value }
        #expect(reasons.count == 4 && reasons.allSatisfy { $0 == "2" }, "\(run.beacons("verificationNotExecuted").map(\.url))")
    }

    /// The OMID event log `--omid-log` writes (`OMIDLog`, from the session's transcript) of the demo is the golden
    /// file; with a script: pause and resume, a mute as a volume change, a skip, and the session's end.
    @Test func theOMIDLogOfTheDemo_isTheGoldenFile() async throws {
        func log(_ arguments: [String]) async throws -> String {
            let kit = SessionKit()
            let configuration = try kit.configuration(cli: ["--vast", "media/demo.xml", "--dry-run"] + arguments)
            let run = await kit.run(configuration)
            var transcript = SessionTranscript()
            for record in run.records { transcript.add(record) }
            return OMIDLog.lines(transcript, breakPosition: configuration.breakRequest.position).map { $0.text + "\n" }.joined()
        }
        let golden = try String(contentsOf: Repo.root.appendingPathComponent("Tests/Golden/demo.omid.jsonl"), encoding: .utf8)
        #expect(try await log(["--seed", "7", "--now", "2026-01-01T00:00:00Z"]) == golden)
        let scripted = try await log(["--script", "pause@1,resume@2,mute@3,click@4,clickthroughClose@5,skip@7"])
        let types = scripted.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String
        }
        // Playhead 1 paused until clock 2; the first quartile (playhead 2.5) at clock 3.5; the click at playhead 3
        // holds it until clock 5; the midpoint (playhead 5) at clock 7, before the skip at that instant.
        #expect(types == ["sessionStart", "loaded", "impression", "start", "playerStateChange", "pause", "resume", "volumeChange", "firstQuartile",
                          "adUserInteraction", "pause", "resume", "midpoint", "skipped", "sessionFinish"], "\(types)")
    }
}
