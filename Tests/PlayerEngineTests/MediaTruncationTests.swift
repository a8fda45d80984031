import AdSession
import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Cut files are reported as truncated (405) wherever the cut falls, however little is missing; whole files, also
/// ones whose timeline starts after 0, are not.
@Suite struct MediaTruncationTests {
    let folder: TemporaryFolder
    let clip: Data

    init() throws {
        folder = try TemporaryFolder()
        clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
    }

    @Test func decode_mp4WhoseTimelineStartsAfterZero_isNotTruncatedAndMatchesFFprobe() async throws {
        // `-itsoffset 1` writes a 1 s empty edit: ffprobe says start 0.976 s, duration 11 s, and it plays fine.
        let path = folder.url.appendingPathComponent("offset.mp4").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-itsoffset", "1", "-i", Repo.media("clip-10s-360p.mp4"), "-c", "copy", path])
        let truth = try await ProbeTruth.of(path)
        #expect(truth.start > 0.9)
        let (statistics, error) = try await decodeToTheEnd(path)
        #expect(error == nil)
        #expect(statistics.streams.count == truth.frames.count)
        for stream in statistics.streams {
            #expect(stream.frames == truth.frames[stream.index])
        }
    }

    @Test(arguments: [990, 995])
    func decode_mp4CutNearItsEnd_isTruncated405(_ permille: Int) async throws {
        // 1 % (or 0.5 %) of the clip is under a tenth of a second of media: less than any time tolerance.
        let path = try folder.write("cut-\(permille).mp4", clip.prefix(clip.count * permille / 1000))
        let (statistics, error) = try await decodeToTheEnd(path)
        let thrown = try #require(error)
        guard case let .truncated(_, detail) = thrown else { Issue.record("got \(thrown)"); return }
        #expect(thrown.vastCode.rawValue == 405)
        #expect(detail.contains("samples its index lists"))
        #expect(statistics.frames > 600, "the frames before the cut are still played")
    }

    @Test func decode_mp4MissingOnlyItsLastByte_isTruncated405() async throws {
        let path = try folder.write("cut-last-byte.mp4", clip.dropLast())
        let error = try #require(await decodeFailure(path))
        guard case let .truncated(_, detail) = error else { Issue.record("got \(error)"); return }
        #expect(detail.contains("cut short"))
    }

    @Test func demux_mp4CutAt99Percent_isTruncated405() async throws {
        let path = try folder.write("cut-99.mp4", clip.prefix(clip.count * 99 / 100))
        let thrown = try await offThePool { () -> MediaError? in
            let source = try FFmpegMediaSource(location: path)
            do throws(MediaError) { while try source.nextPacket() != nil {} } catch { return error }
            return nil
        }
        let error = try #require(thrown)
        guard case .truncated = error else { Issue.record("got \(error)"); return }
    }

    @Test func decode_badPacketNearTheEnd_drainsTheSameFramesWithAnyThreadCount() async throws {
        // The cut leaves a partial last video packet; with frame threads its decode error surfaces while draining,
        // with frames still queued behind it in other threads. They must all come out, as with one thread.
        let path = try folder.write("cut-99.mp4", clip.prefix(clip.count * 99 / 100))
        var videoFrames: [Int] = []
        for threads in [1, 4] {
            let (statistics, error) = try await decodeToTheEnd(path, options: MediaOpenOptions(decoderThreads: threads))
            guard case .truncated = error else { Issue.record("threads \(threads): got \(String(describing: error))"); continue }
            videoFrames.append(try #require(statistics.streams.first { $0.type == .video }).frames)
        }
        #expect(videoFrames.count == 2 && Set(videoFrames).count == 1, "video frames with 1 and 4 threads: \(videoFrames)")
    }

    @Test(arguments: [8, 20, 36, 40, 200, 1000, 8000])
    func open_mp4CutInsideItsHeader_isTruncated405AtEveryCutPoint(_ bytes: Int) async throws {
        let error = try #require(await decodeFailure(try folder.write("cut-\(bytes).mp4", clip.prefix(bytes))))
        guard case let .truncated(_, detail) = error else { Issue.record("cut at \(bytes) bytes: got \(error)"); return }
        #expect(detail.contains("header"))
        #expect(error.vastCode.rawValue == 405)
    }

    @Test func decode_mp4WithCompleteHeaderCutBeforeItsFirstFrame_isTruncated405() async throws {
        // The moov is whole and the mdat box header is there, but not one byte of sample data: nothing decodes,
        // which is a truncated file, not a corrupt stream.
        let mdatEnd = byteOffset(of: "mdat", in: clip) + 4
        let error = try #require(await decodeFailure(try folder.write("cut-at-mdat.mp4", clip.prefix(mdatEnd))))
        guard case let .truncated(_, detail) = error else { Issue.record("got \(error)"); return }
        #expect(detail.hasPrefix("data ends at 0.000 s of 10.000 s"))
    }

    @Test func open_mp4WithOnlyASubtitleStream_isStillNotMedia() async throws {
        // A whole MP4 without audio or video is not a truncated one.
        let subtitles = try folder.write("cues.srt", "1\n00:00:00,000 --> 00:00:01,000\nhello\n")
        let path = folder.url.appendingPathComponent("subtitles-only.mp4").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-i", subtitles, "-c:s", "mov_text", path])
        let error = try #require(await decodeFailure(path))
        guard case let .notMedia(_, message) = error else { Issue.record("got \(error)"); return }
        #expect(message == "no audio or video stream")
    }
}
