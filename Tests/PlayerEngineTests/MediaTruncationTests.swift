import Foundation
import TestSupport
import Testing
@testable import PlayerEngine

/// Cut files are reported as truncated (405) wherever the cut falls, however little is missing; whole files, also
/// ones whose timeline starts after 0, are not.
@Suite struct MediaTruncationTests {
    let folder: TemporaryFolder
    let clip: Data

    init() throws {
        folder = try TemporaryFolder()
        clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
    }

    @Test(arguments: [8, 20, 36, 40, 200, 1000, 8000])
    func open_mp4CutInsideItsHeader_isTruncated405AtEveryCutPoint(_ bytes: Int) throws {
        let error = try #require(decodeFailure(try folder.write("cut-\(bytes).mp4", clip.prefix(bytes))))
        guard case let .truncated(_, detail) = error else { Issue.record("cut at \(bytes) bytes: got \(error)"); return }
        #expect(detail.contains("header"))
        #expect(error.vastCode == 405)
    }

    @Test func open_mp4WithOnlyASubtitleStream_isStillNotMedia() throws {
        // A whole MP4 without audio or video is not a truncated one.
        let subtitles = try folder.write("cues.srt", "1\n00:00:00,000 --> 00:00:01,000\nhello\n")
        let path = folder.url.appendingPathComponent("subtitles-only.mp4").path
        try run("ffmpeg", ["-v", "error", "-y", "-i", subtitles, "-c:s", "mov_text", path])
        let error = try #require(decodeFailure(path))
        guard case let .notMedia(_, message) = error else { Issue.record("got \(error)"); return }
        #expect(message == "no audio or video stream")
    }
}
