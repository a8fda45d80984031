import Foundation
import Testing
import TestSupport

/// Issue 14, items 4 and 5, through the binary: the resolved line states the ad's presentation timeline in the file's
/// timestamps, and events count from its first picture.
@Suite struct MediaTimelineTests {
    @Test func json_videoStartingAtOneSecond_statesItsTimelineAndTimesQuartilesFromIt() async throws {
        let folder = try TemporaryFolder()
        let media = folder.url.appendingPathComponent("offset.mp4").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-itsoffset", "1", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", media])
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(media)")
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:05.000</Duration>")
        let run = try await vplay(["--vast", try folder.write("tag.xml", tag), "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let resolved = try #require(run.lines.first { $0["kind"] as? String == "resolved" })
        let mediaLine = try #require(resolved["media"] as? [String: Any])
        #expect(mediaLine["duration"] as? Double == 5.0)
        let timeline = try #require(mediaLine["timeline"] as? [String: Any])
        #expect(timeline["startTime"] as? Double == 1.0)
        #expect(timeline["endTime"] as? Double == 6.0)
        #expect(timeline["measuredBy"] as? String == "frames")
        #expect(timeline["declaredDuration"] as? Double == 6.0)
        let quartiles = run.lines.filter { $0["kind"] as? String == "event" && ["firstQuartile", "midpoint", "thirdQuartile", "complete"].contains($0["name"] as? String) }
        #expect(quartiles.map { $0["playhead"] as? Double } == [1.25, 2.5, 3.75, 5.0])
        #expect(!run.lines.contains { $0["kind"] as? String == "warning" }, "neither the header nor the tag disagrees with the frames")
    }
}
