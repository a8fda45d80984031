import AdSession
import Foundation
import Primitives
import Testing
import TestSupport

/// The media a session plays, in process: a missing first file falls back to the next, a file the user forced is
/// the only one tried, a media error mid-play stops where the decodable data ends, and the Adcash quality rule picks
/// low, mid or high from the last download (timed on the kit's network clock, which never moves: 0 s).
@Suite struct MediaFallbackBehaviourTests {
    let kit = SessionKit()
    static let clip = "file://\(Repo.media("clip-10s-360p.mp4"))"

    /// The demo tag with its media as an absolute file URL (so the tag can live in a temporary folder).
    static func demoTag(_ folder: TemporaryFolder, replacing pairs: [(String, String)] = []) throws -> String {
        var tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: clip)
        for (old, new) in pairs { tag = tag.replacingOccurrences(of: old, with: new) }
        return try folder.write("tag.xml", tag)
    }

    @Test func firstMediaFileMissing_theNextOnePlays_withAWarningAndNoErrorBeacon() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demoTag(folder, replacing: [(#"bitrate="223" codec="avc1.64001e">\#(Self.clip)</MediaFile>"#,
            #"bitrate="900"><![CDATA[file://\#(folder.url.path)/missing.mp4]]></MediaFile><MediaFile id="second" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223"><![CDATA[\#(Self.clip)]]></MediaFile>"#)])
        #expect(try String(contentsOfFile: tag, encoding: .utf8).contains("missing.mp4"), "the tag was rewritten")
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--json"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        #expect(run.warnings.contains { $0.contains("missing.mp4 cannot be played (VAST 401") }, "\(run.warnings)")
        #expect(run.beacons("error").isEmpty)
        #expect(run.resolved.map(\.mediaURL) == [Self.clip])
        #expect(run.resolved.first?.mediaReason.contains("→ #2") == true, "the position in the tag: \(run.resolved.map(\.mediaReason))")
        #expect(run.events(.complete).map(\.playhead) == [.seconds(10)])
        // The selection counts positions in the tag, and lists the file tried first with why it was not played
        // (after a fallback it was once left out, and the others numbered among the files left).
        let inspection = await kit.inspect(kit.configuration(tag))
        let selection = try #require(inspection.selection)
        #expect(selection.index == 2 && selection.reason.contains("→ #2"), "\(selection.reason)")
        #expect(selection.rejected.map(\.index) == [1], "\(selection.rejected)")
        #expect(selection.rejected.first?.reason.contains("could not be played (VAST 401") == true, "\(selection.rejected)")
        let forced = try await kit.run(cli: ["--vast", tag, "--dry-run", "--json", "--media-file", "1"])
        #expect(forced.summary.outcome == .mediaError && forced.summary.error?.code.rawValue == 401, "a file the user forced is the only one tried (exit 4)")
    }

    /// Half the clip's bytes: FFmpeg decodes what is there (the kit's real media, on the virtual clock) and fails at
    /// the cut.
    @Test func mediaError_midPlay_firesTheErrorURLWithThePlayheadWherePlaybackStopped_andTheSummaryCountsFrames() async throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let cut = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let tag = try Self.demoTag(folder, replacing: [(Self.clip, "file://\(cut)")])
        var kit = kit
        kit.realMedia = true
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--json", "--reward-at", "1s"])
        #expect(run.summary.outcome == .mediaError, "exit 4")
        let error = try #require(run.errors.first)
        let playhead = try #require(error.playhead).microsecondSeconds
        #expect(playhead > 4.8 && playhead < 5.1, "where the decodable data ends, not the first quartile's 2.5: \(playhead)")
        let beacon = try #require(run.beacons("error").first)
        #expect(beacon.url.contains("pos=00%3A00%3A0\(String(format: "%.3f", playhead))"), "\(beacon.url)")
        let playback = try #require(run.summary.playback)
        #expect(playback.framesPresented > 300, "frames presented before the failure are counted")
        #expect(playback.rewardGranted, "the 1 s reward was granted before the failure")
        #expect(playback.ending?.rawValue == "failed")
    }

    /// The Adcash quality rule (seed 000, Table 5): no history → low; a fast download steps up; a slow high one steps
    /// down, by how slow.
    @Test func adcashState_firstRunLow_thenAFastDownloadStepsUpToHigh() async throws {
        let folder = try TemporaryFolder()
        let files = [("low", 100, "clip-5s-video-only.mp4"), ("mid", 150, "clip-audio-outlasts-video.mp4"), ("high", 223, "clip-10s-360p.mp4")]
        let media = files.map { id, kbps, clip in
            #"<MediaFile id="\#(id)" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="\#(kbps)"><![CDATA[file://\#(Repo.media(clip))]]></MediaFile>"#
        }.joined(separator: "\n")
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"<MediaFile id="demo-360p" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223" codec="avc1.64001e"><![CDATA[clip-10s-360p.mp4]]></MediaFile>"#, with: media)
        let tagPath = try folder.write("tag.xml", tag)
        let state = folder.url.appendingPathComponent("adcash.json").path
        func chosen() async throws -> String? {
            let run = try await kit.run(cli: ["--vast", tagPath, "--dry-run", "--json", "--adcash-state", state])
            #expect(run.summary.outcome == .completed, "\(run.errors)")
            return run.resolved.first?.mediaURL
        }
        #expect(try await chosen()?.hasSuffix("clip-5s-video-only.mp4") == true, "no history: low")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any])
        #expect(saved["quality"] as? String == "low" && saved["downloadSeconds"] as? Double == 0, "\(saved)")
        #expect(try await chosen()?.hasSuffix("clip-10s-360p.mp4") == true, "low downloaded in ≤ 2 s: high")
        // A slow high-quality download (10 s or more) steps down to low.
        try Data(#"{"quality":"high","downloadSeconds":12}"#.utf8).write(to: URL(fileURLWithPath: state))
        #expect(try await chosen()?.hasSuffix("clip-5s-video-only.mp4") == true)
        try Data(#"{"quality":"high","downloadSeconds":7}"#.utf8).write(to: URL(fileURLWithPath: state))
        #expect(try await chosen()?.hasSuffix("clip-audio-outlasts-video.mp4") == true, "5 ≤ x < 10 on high: mid")
    }

    /// `--media-file` names a file by its position or its id: by id the demo's only file plays.
    @Test func mediaFileByID_playsThatFile() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--media-file", "demo-360p"])
        #expect(run.summary.outcome == .completed && run.resolved.map(\.mediaURL) == ["clip-10s-360p.mp4"], "\(run.resolved.map(\.mediaURL))")
    }
}
