import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport

/// Issue 14, items 4 and 5, in process: the resolved record states the ad's presentation timeline in the file's
/// timestamps, and events count from its first picture.
@Suite struct MediaTimelineBehaviourTests {
    let kit = SessionKit()

    @Test func videoStartingAtOneSecond_statesItsTimelineAndTimesQuartilesFromIt() async throws {
        let folder = try TemporaryFolder()
        let media = folder.url.appendingPathComponent("offset.mp4").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-itsoffset", "1", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", media])
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(media)")
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:05.000</Duration>")
            // The clip's own size, and no bitrate: the tag declares nothing the file contradicts.
            .replacingOccurrences(of: #"width="640" height="360" bitrate="223""#, with: #"width="320" height="180""#)
        let run = try await kit.run(cli: ["--vast", try folder.write("tag.xml", tag), "--dry-run"])
        #expect(run.summary.outcome == .completed)
        let resolved = try #require(run.resolved.first).media
        #expect(resolved.duration == 5.0)
        #expect(resolved.timeline.start == .seconds(1))
        #expect(resolved.timeline.end == .seconds(6))
        #expect(resolved.timeline.measuredBy == .frames)
        #expect(resolved.declaredDuration == .seconds(6))
        let quartiles = run.events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }
        #expect(quartiles.map(\.playhead) == [.milliseconds(1250), .milliseconds(2500), .milliseconds(3750), .seconds(5)])
        #expect(quartiles.map(\.clock) == [.milliseconds(1250), .milliseconds(2500), .milliseconds(3750), .seconds(5)])
        #expect(run.warnings.isEmpty, "neither the header nor the tag disagrees with the frames")
    }
}
