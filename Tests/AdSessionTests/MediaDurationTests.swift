import Primitives
import Foundation
import Testing
import TestSupport
@testable import AdSession
import PlayerEngine

/// Issue 14, item 5, through a whole session: a media header that lies about its duration is a warning naming both
/// durations, and the tracking is timed on the frames' duration (the tag's `<Duration>` only draws its own warning).
@Suite struct MediaDurationTests {
    @Test func session_mediaHeaderDurationTimesTen_firesQuartilesOnTheFramesAndWarnsNamingBoth() async throws {
        let folder = try TemporaryFolder()
        var data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        // `mvhd` version 0: its 32-bit duration follows version/flags, two 32-bit times and the time scale.
        let box = data.range(of: Data("mvhd".utf8))!.lowerBound
        #expect(data[box + 4] == 0)
        let offset = box + 4 + 4 + 8 + 4
        let declared = data[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let lie = declared * 10
        for byte in 0..<4 { data[offset + byte] = UInt8(truncatingIfNeeded: lie >> (8 * UInt32(3 - byte))) }
        let media = folder.url.appendingPathComponent("lying.mp4")
        try data.write(to: media)
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(media.path)")
        var configuration = SessionConfiguration(tag: try folder.write("tag.xml", tag))
        configuration.dryRun = true
        let recorder = Recorder()
        let summary = await AdSessionRunner(configuration: configuration, environment: SessionKit().environment(configuration).0).run { await recorder.add($0) }
        #expect(summary.outcome == .completed)
        #expect(summary.duration == .seconds(10))
        let warnings = summary.warnings.filter { $0.contains("header declares") }
        #expect(warnings == ["VPLAY-media-duration-container: the media's header declares a duration of 100.000 s but its frames last 10.000 s; quartiles use 10.000 s"])
        #expect(!summary.warnings.contains { $0.contains("<Duration>") }, "the tag's 10 s agrees with the frames")
        let quartiles = await recorder.events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }
        #expect(quartiles.map(\.playhead) == [.milliseconds(2500), .seconds(5), .milliseconds(7500), .seconds(10)])
    }
}
