import AdSession
import Primitives
import Foundation
import TestSupport
import Testing
@testable import PlayerEngine

/// Loading media over loopback HTTP against hostile servers and crafted locations: one request per load, a bounded
/// load time, and FFmpeg's own whitelists keep remote media from reaching local files or other protocols.
@Suite struct MediaLoadingTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// An HLS playlist named like an MP4, whose only segment is a real local MPEG-TS file (`secret.ts`).
    func writePlaylistNamingALocalFile() async throws -> String {
        let secret = folder.url.appendingPathComponent("secret.ts").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", "-f", "mpegts", secret])
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:5.0,\nfile://\(secret)\n#EXT-X-ENDLIST\n"
        return try folder.write("ad.mp4", playlist)
    }

    @Test(.hangLimit)
    func open_serverAnsweringHTMLThenStallingOnASecondRequest_failsAfterOneRequestWithoutHanging() async throws {
        // Answering non-media used to make vplay open the URL a second time (to probe it) with no timeout, and a
        // server that stalled on that second request hung it for good.
        let html = Data(String(repeating: "<html>not media</html>", count: 10).utf8)
        // The stall ends after 20 s, so that a second request fails the test instead of hanging it.
        let server = try ScriptedHTTPServer(replies: [.body(html, contentType: "text/html"), .stall(for: .seconds(20))])
        defer { server.stop() }
        let error = try #require(await decodeFailure("http://127.0.0.1:\(server.port)/ad.mp4"))
        guard case .notMedia = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 405)
        #expect(server.connections == 1, "the media is requested once")
    }

    @Test(.hangLimit)
    func open_serverTricklingBytesUnderTheReadTimeout_failsAtTheLoadDeadlineWith402() async throws {
        // One byte every 50 ms never blocks a read for the 10 s read timeout; only the whole-load deadline stops it.
        // 300 bytes (15 s) keep a regression from hanging: without the deadline, the load fails otherwise at 15 s.
        let clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let server = try ScriptedHTTPServer(replies: [.trickle(clip.prefix(300), every: .milliseconds(50))])
        defer { server.stop() }
        let options = MediaOpenOptions(ioTimeout: .seconds(10), loadTimeout: .milliseconds(500))
        let error = try #require(await decodeFailure("http://127.0.0.1:\(server.port)/ad.mp4", options: options))
        guard case let .loadTimedOut(_, limit) = error else { Issue.record("got \(error)"); return }
        #expect(limit == .milliseconds(500))
        #expect(error.vastCode.rawValue == 402)
        #expect(error.kind == "load-timed-out")
    }

    @Test(.hangLimit)
    func decode_serverTricklingAfterTheHeader_failsMidPlaybackAtTheReadLimitWith402() async throws {
        // The header and the first half of the clip arrive at once, so loading succeeds and frames decode; then one
        // byte every 50 ms never blocks a read for long, and only the per-packet limit stops it: the failure's kind
        // and limit say so. Without it the other 139 KB would take nearly two hours, which the hang limit (10 min)
        // catches. No wall-time bound of its own: alone it fails in about a second, but decoding the fast half is
        // CPU work, and beside the studio's browser test on 2 cores it once took 60.5 s (a 60 s bound failed).
        let clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let half = clip.count / 2
        let server = try ScriptedHTTPServer(replies: [.trickle(clip, every: .milliseconds(50), fastBytes: half)])
        defer { server.stop() }
        let options = MediaOpenOptions(decoderThreads: 1, ioTimeout: .seconds(1), loadTimeout: .seconds(8))
        let (statistics, error) = try await decodeToTheEnd("http://127.0.0.1:\(server.port)/ad.mp4", options: options)
        let failure = try #require(error, "the trickling media decoded to its end")
        guard case let .readTimedOut(_, limit) = failure else { Issue.record("got \(failure)"); return }
        #expect(limit == .seconds(1))
        #expect(failure.vastCode.rawValue == 402)
        #expect(failure.kind == "read-timed-out")
        #expect(statistics.frames > 0, "the fast half decodes before the stall")
        #expect(server.connections == 1)
    }

    @Test func open_remoteHLSPlaylistNamingALocalFile_isRefusedByTheFormatWhitelist403() async throws {
        _ = try await writePlaylistNamingALocalFile()
        let server = try ScriptedHTTPServer(files: folder.url.path)
        defer { server.stop() }
        let error = try #require(await decodeFailure("http://127.0.0.1:\(server.port)/ad.mp4"))
        guard case let .formatNotAllowed(_, format) = error else { Issue.record("got \(error)"); return }
        #expect(format == "hls")
        #expect(error.vastCode.rawValue == 403)
        #expect(server.requests().map(\.target) == ["/ad.mp4"])
    }

    @Test func open_remoteHLSWithHLSAllowed_stillCannotReadTheLocalFileItNames() async throws {
        // Widen the format whitelist to let FFmpeg's HLS (and, for the segment, MPEG-TS) demuxer run: then only the
        // protocol whitelist stands between the remote playlist and the local segment, and FFmpeg must refuse `file`
        // for remote media.
        _ = try await writePlaylistNamingALocalFile()
        let server = try ScriptedHTTPServer(files: folder.url.path)
        defer { server.stop() }
        let location = "http://127.0.0.1:\(server.port)/ad.mp4"
        // FFmpeg logs "Protocol 'file' not on whitelist" and the HLS demuxer fails to load its first segment.
        let refusal = try await offThePool { () -> MediaError? in
            do throws(MediaError) {
                _ = try FormatContext(
                    location: location, ioTimeout: .seconds(10), loadTimeout: .seconds(10),
                    allowedFormats: FormatContext.adFormats + ",hls,mpegts")
                return nil
            } catch { return error }
        }
        #expect(refusal == .schemeNotAllowed(location: location), "the local segment of a remote playlist opened")
        #expect(server.requests().map(\.target) == ["/ad.mp4"])
    }

    @Test func decode_upperCaseHTTPScheme_playsLikeLowerCase() async throws {
        // URI schemes are case-insensitive (RFC 3986); FFmpeg's protocol names are not.
        let server = try ScriptedHTTPServer(files: Repo.root.appendingPathComponent("media").path)
        defer { server.stop() }
        for scheme in ["HTTP", "hTTp"] {
            let (statistics, error) = try await decodeToTheEnd("\(scheme)://127.0.0.1:\(server.port)/clip-5s-video-only.mp4")
            #expect(error == nil)
            #expect(statistics.streams.map(\.frames) == [150])
        }
    }

    @Test func open_subfileProtocolInItsRealSyntax_isRefusedByFFmpegsProtocolWhitelist403() async throws {
        // `subfile,,start,0,end,0,,:/etc/passwd` does not look like a scheme to vplay's own check (it has commas),
        // so it reaches FFmpeg, which picks its `subfile` protocol: only FFmpeg's whitelist refuses it.
        let location = "subfile,,start,0,end,0,,:/etc/passwd"
        #expect(try FormatContext.openableTarget(location) == location, "vplay's pre-check lets it through to FFmpeg")
        let error = try #require(await decodeFailure(location))
        guard case .schemeNotAllowed = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 403)
    }
}
