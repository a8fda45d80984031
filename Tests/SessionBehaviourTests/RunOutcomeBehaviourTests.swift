import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
@testable import vplay

/// How a run ends, in process: a reward the tag turned off, an ad whose only file cannot be played, media cut short,
/// the ending the summary's headline names. The exit statuses these become are `CLITests`, through the binary.
@Suite struct RunOutcomeBehaviourTests {
    let kit = SessionKit()

    /// A RewardedVideo extension without `<RewardedVideoOn>1`: inspect showed the reward, a run never granted it,
    /// and nothing said why. Now both warn, inspect shows no reward, and the run grants none.
    @Test func rewardTurnedOffByTheTag_isAWarning_andInspectAndRunAgree() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "<RewardedVideoOn><![CDATA[1]]></RewardedVideoOn>", with: "<RewardedVideoOn>0</RewardedVideoOn>")
        #expect(text.contains("<RewardedVideoOn>0</RewardedVideoOn>"), "the demo tag has the extension")
        let tag = try folder.write("off.xml", text)
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag])
        #expect(inspection.ad?.rewarded?.isEnabled == false, "\(String(describing: inspection.ad?.rewarded))")
        #expect(!InspectRendering.text(inspection).contains("rewarded:"))
        #expect(inspection.warnings.contains { $0.rule == "VPLAY-reward-extension-off" && $0.message.contains("no <RewardedVideoOn>1</RewardedVideoOn>") }, "\(inspection.warnings)")
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        #expect(run.warnings.contains { $0.contains("no reward is granted") }, "\(run.warnings)")
        #expect(run.summary.playback?.rewardGranted == false && run.events(.rewarded).isEmpty)
        #expect(run.events(.complete).map(\.clock) == [.seconds(10)])
    }

    /// An ad whose only file cannot be played (VPAID JavaScript) is 403, a media error, in `run` and `inspect` alike
    /// (inspect said an ad error).
    @Test func unplayableTag_isAMediaError_inRunAndInspect() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("vpaid.xml", """
            <VAST version="4.1"><Ad id="v"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" height="360"><![CDATA[https://cdn.example/vpaid.js]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag])
        #expect(run.summary.outcome == .mediaError && inspection.outcome == .mediaError, "exit 4 in both")
        #expect(run.errors.map(\.code.rawValue) == [403] && inspection.errors.map(\.code.rawValue) == [403])
        #expect(run.events(.impression).isEmpty)
    }

    /// Real FFmpeg on half the demo clip, on the virtual clock: 405 where the data ends, its Error URL fired, and what
    /// played before the cut reported.
    @Test func truncatedMedia_is405_withTheErrorBeacon_afterWhatPlayed() async throws {
        let folder = try TemporaryFolder()
        let clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        _ = try folder.write("clip-10s-360p.mp4", clip.prefix(clip.count / 2))
        _ = try folder.write("demo.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8))
        var kit = kit
        kit.realMedia = true
        let run = try await kit.run(cli: ["--vast", folder.url.appendingPathComponent("demo.xml").path, "--dry-run"])
        #expect(run.summary.outcome == .mediaError, "exit 4")
        let error = try #require(run.errors.first)
        #expect(error.code.rawValue == 405 && error.message.contains("truncated"), "\(error)")
        #expect(run.beacons("error").count == 1 && run.beacons("error")[0].url.contains("error?code=405"))
        #expect(run.events(.firstQuartile).map(\.clock) == [.milliseconds(2500)], "what played before the cut was reported")
    }

    /// The headline names how the ad ended: a skipped or abandoned session said "completed".
    @Test func summaryHeadline_namesTheEnding() async throws {
        let skipped = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--script", "skip@6"])
        #expect(SessionText.summary(skipped.summary, exitCode: 0).contains("summary: skipped (exit 0)"))
        let abandoned = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--script", "background@3"])
        #expect(abandoned.summary.playback?.ending == .abandoned)
        #expect(SessionText.summary(abandoned.summary, exitCode: 0).contains("summary: abandoned"))
    }

    @Test func noSuchTag_is301_notXML_is100() async throws {
        let missing = try await kit.run(cli: ["--vast", "media/no-such-tag.xml"])
        #expect(missing.summary.outcome == .adError && missing.errors.map(\.code.rawValue) == [301])
        let folder = try TemporaryFolder()
        let bad = try await kit.run(cli: ["--vast", try folder.write("bad.xml", "this is not xml <"), "--dry-run"])
        #expect(bad.summary.outcome == .adError && bad.errors.map(\.code.rawValue) == [100])
    }

    @Test func now_withAnOffset_keepsThatOffsetInTIMESTAMP() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--now", "2026-01-01T09:00:00.5+09:00"])
        #expect(run.beacons("impression").first?.url.hasSuffix("&ts=2026-01-01T09%3A00%3A00.500%2B09%3A00") == true, "\(run.beacons("impression"))")
    }
}
