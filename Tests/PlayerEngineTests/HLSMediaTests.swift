import AdSession
import Foundation
import Primitives
import Synchronization
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Issue 23: HLS media through FFmpeg's `hls` demuxer, on playlists made at test time (`HLSFixture`) and served over
/// loopback, with every nested URL checked by vplay.
@Suite struct HLSMediaTests {
    func serve(_ root: String, failing: String? = nil) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer(files: root, failing: failing)
    }

    @Test func hls_remoteMediaPlaylist_decodesTheFramesFFprobeCountsOnTheSamePlaylist() async throws {
        let server = try serve(try await HLSFixture.root())
        defer { server.stop() }
        let url = "\(server.baseURL)/hi/index.m3u8"
        let truth = try await ProbeTruth.of(url)
        let (statistics, error) = try await decodeToTheEnd(url, options: .streamingManifests)
        #expect(error == nil)
        #expect(Dictionary(uniqueKeysWithValues: statistics.streams.map { ($0.index, $0.frames) }) == truth.frames)
        let info = try await offThePool { try FFmpegMediaSource(location: url, options: .streamingManifests).info }
        #expect(info.format == "hls")
        #expect(info.duration == truth.duration)
        #expect(info.exactDuration == .seconds(10))
    }

    @Test func hls_masterPlaylist_playsTheChosenVariantOnly() async throws {
        let server = try serve(try await HLSFixture.root())
        defer { server.stop() }
        var choosing = MediaOpenOptions.streamingManifests
        choosing.streaming = StreamingOptions(chooseVariant: { variants in
            #expect(variants.map(\.bandwidth) == [HLSFixture.hiBandwidth, HLSFixture.loBandwidth])
            #expect(variants.map(\.width) == [640, 160])
            return VariantChoice(index: 1, reason: "the test's choice")
        })
        let options = choosing
        let url = "\(server.baseURL)/master.m3u8"
        let chosen = try await offThePool { try FFmpegMediaSource(location: url, options: options).info }
        #expect(chosen.video?.width == 160)
        #expect(chosen.variant == "variant 2 of 2: the test's choice")
        let highest = try await offThePool { try FFmpegMediaSource(location: url, options: .streamingManifests).info }
        #expect(highest.video?.width == 640)
        #expect(highest.variant == "variant 1 of 2: highest BANDWIDTH")
        let truth = try await ProbeTruth.of("\(server.baseURL)/lo/index.m3u8")
        let (statistics, error) = try await decodeToTheEnd(url, options: options)
        #expect(error == nil)
        #expect(Dictionary(uniqueKeysWithValues: statistics.streams.map { ($0.index, $0.frames) }) == truth.frames)
    }

    @Test func hls_segmentAnswering404MidAd_failsTruncatedWhereItsDataEnds() async throws {
        let server = try serve(try await HLSFixture.root(), failing: "/hi/seg2.ts")
        defer { server.stop() }
        let (statistics, error) = try await decodeToTheEnd("\(server.baseURL)/hi/index.m3u8", options: .streamingManifests)
        guard case let .truncated(_, detail) = error else { Issue.record("expected truncated, got \(String(describing: error))"); return }
        #expect(error?.vastCode == .mediaFileDisplay)
        #expect(detail.contains("/hi/seg2.ts"), "\(detail)")
        // Two 2 s segments played: the last picture ends where the third segment would have begun.
        let video = try #require(statistics.streams.first { $0.type == .video })
        #expect(abs((video.end ?? 0) - 4.0) < 0.05, "video ends at \(video.end ?? 0)")
        #expect(!server.requests().contains { $0.target == "/hi/seg3.ts" }, "nothing is read after the failed segment")
    }

    @Test func hls_remotePlaylistNamingLocalFiles_isRefusedBeforeAnySegmentIsRequested() async throws {
        let root = try await HLSFixture.root()
        let segment = URL(fileURLWithPath: root).appendingPathComponent("hi/seg0.ts").path
        for uri in ["file://\(segment)", "FILE://\(segment)", "file://otherhost\(segment)", "file:\(segment)"] {
            let folder = try TemporaryFolder()
            _ = try folder.write("evil.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhttp-ok.ts\n#EXTINF:2.0,\n\(uri)\n#EXT-X-ENDLIST\n")
            let server = try serve(folder.url.path)
            defer { server.stop() }
            let error = try await decodeFailure("\(server.baseURL)/evil.m3u8", options: .streamingManifests)
            #expect(error == .schemeNotAllowed(location: uri), "\(uri)")
            #expect(server.requests().map(\.target) == ["/evil.m3u8"], "\(uri)")
        }
    }

    /// The playlist FFmpeg reads is requested after vplay's own check: a server that answers the check with a clean
    /// playlist and FFmpeg with one naming a local file is stopped by the `io_open` policy, not by the first look.
    @Test func hls_playlistThatTurnsHostileOnItsSecondRequest_isRefusedByTheNestedOpenPolicy() async throws {
        let root = try await HLSFixture.root()
        let clean = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhi/seg0.ts\n#EXT-X-ENDLIST\n"
        let hostile = clean.replacingOccurrences(of: "hi/seg0.ts", with: "file://\(root)/hi/seg0.ts")
        final class Count: Sendable { let value = Mutex(0) }
        let count = Count()
        let folder = URL(fileURLWithPath: root, isDirectory: true)
        let server = try ScriptedHTTPServer { target in
            guard target == "/turn.m3u8" else { return ScriptedHTTPServer.fileReply(for: target, in: folder) }
            let seen = count.value.withLock { value in value += 1; return value }
            return .body(Data((seen == 1 ? clean : hostile).utf8), contentType: "application/vnd.apple.mpegurl")
        }
        defer { server.stop() }
        let error = try await decodeFailure("\(server.baseURL)/turn.m3u8", options: .streamingManifests)
        #expect(error == .schemeNotAllowed(location: "file://\(root)/hi/seg0.ts"))
        #expect(server.requests().map(\.target) == ["/turn.m3u8", "/turn.m3u8"])
    }

    @Test func hls_localPlaylistNamingAFileOutsideItsFolder_isRefused() async throws {
        let root = try await HLSFixture.root()
        let folder = try TemporaryFolder()
        let inside = folder.url.appendingPathComponent("ad")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(root)/hi/seg0.ts", toPath: folder.url.appendingPathComponent("outside.ts").path)
        let playlist = inside.appendingPathComponent("index.m3u8").path
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n../outside.ts\n#EXT-X-ENDLIST\n".utf8).write(to: URL(fileURLWithPath: playlist))
        let refusal = try await decodeFailure(playlist, options: .streamingManifests)
        #expect(refusal?.kind == "scheme-not-allowed")
        #expect(refusal?.description.contains("outside.ts") == true)
        // The same segments inside the playlist's folder play (offline replay with --map).
        let (statistics, error) = try await decodeToTheEnd("\(root)/hi/index.m3u8", options: .streamingManifests)
        #expect(error == nil)
        #expect(Dictionary(uniqueKeysWithValues: statistics.streams.map { ($0.index, $0.frames) }) == (try await ProbeTruth.of("\(root)/hi/index.m3u8")).frames)
    }

    @Test func hls_hostilePlaylists_areRefusedAtOnceWithoutHanging() async throws {
        let folder = try TemporaryFolder()
        let live = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhi/seg0.ts\n"
        let selfLoop = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nloop.m3u8\n"
        var huge = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        while huge.utf8.count <= HLSPlaylist.maxBytes { huge += "#EXTINF:2.0,\nhi/seg0.ts\n" }
        huge += "#EXT-X-ENDLIST\n"
        _ = try folder.write("live.m3u8", live)
        _ = try folder.write("loop.m3u8", selfLoop)
        _ = try folder.write("huge.m3u8", huge)
        let server = try serve(folder.url.path)
        defer { server.stop() }
        // Each is refused for what it is (not `load-timed-out` at the 8 s deadline): no wall-clock bound needed.
        let liveError = try await decodeFailure("\(server.baseURL)/live.m3u8", options: .streamingManifests)
        #expect(liveError?.kind == "format-not-allowed")
        #expect(liveError?.description.contains("#EXT-X-ENDLIST") == true)
        let loopError = try await decodeFailure("\(server.baseURL)/loop.m3u8", options: .streamingManifests)
        #expect(loopError?.kind == "not-media")
        #expect(loopError?.description.contains("itself a master playlist") == true)
        let hugeError = try await decodeFailure("\(server.baseURL)/huge.m3u8", options: .streamingManifests)
        #expect(hugeError?.kind == "format-not-allowed")
        // A media playlist whose segment is the playlist itself: FFmpeg's segment demuxer may open nothing further.
        _ = try folder.write("self.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nself.m3u8\n#EXT-X-ENDLIST\n")
        let selfError = try await decodeFailure("\(server.baseURL)/self.m3u8", options: .streamingManifests)
        #expect(selfError != nil)
        #expect(server.requests().filter { $0.target == "/self.m3u8" }.count <= 3, "\(server.requests().map(\.target))")
    }

    /// A playlist like the fixture's `hi/index.m3u8` (five 2 s segments, `#EXT-X-TARGETDURATION:2`), each `#EXTINF`
    /// saying `extinf`, written into `folder` beside copies of the segments.
    func lyingPlaylist(_ extinf: String, in folder: TemporaryFolder, name: String) async throws -> String {
        let root = try await HLSFixture.root()
        for index in 0..<5 where !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("seg\(index).ts").path) {
            try FileManager.default.copyItem(atPath: "\(root)/hi/seg\(index).ts", toPath: folder.url.appendingPathComponent("seg\(index).ts").path)
        }
        let segments = (0..<5).map { "#EXTINF:\(extinf),\nseg\($0).ts\n" }.joined()
        _ = try folder.write(name, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n\(segments)#EXT-X-ENDLIST\n")
        return name
    }

    /// Issue 37, item 9: FFmpeg takes the playlist's `#EXTINF` sum as the ad's duration, so a value that is no
    /// duration is refused before any segment is requested, naming the segment and the value.
    @Test(arguments: ["0", "0.0", "nan", "NaN", "inf", "-2", "-0", "1e308", "", " ", "0x2", "+2", "2.0.0", ".5", "3", "20", "1e308, title"])
    func hls_EXTINFThatIsNoDuration_isRefusedBeforeAnySegment(_ extinf: String) async throws {
        let folder = try TemporaryFolder()
        let name = try await lyingPlaylist(extinf, in: folder, name: "lie.m3u8")
        let server = try serve(folder.url.path)
        defer { server.stop() }
        let error = try await decodeFailure("\(server.baseURL)/\(name)", options: .streamingManifests)
        #expect(error?.kind == "not-media", "\(String(describing: error))")
        #expect(error?.vastCode == .mediaFileDisplay)
        #expect(error?.description.contains("segment 1 says #EXTINF:") == true, "\(String(describing: error))")
        #expect(server.requests().map(\.target) == ["/\(name)"], "no segment requested")
    }

    /// Issue 37, item 9: `#EXTINF:0.1` five times is a valid playlist of 0.5 s whose segments hold 10 s. It used to
    /// play as a completed view after 15 of 300 pictures; the frames past the declared end fail it (405) before
    /// complete, and no reward is due.
    @Test(arguments: ["0.1", "1.4", "1"])
    func hls_EXTINFsShorterThanTheSegments_failDurationMismatchInsteadOfCompleting(_ extinf: String) async throws {
        let folder = try TemporaryFolder()
        let name = try await lyingPlaylist(extinf, in: folder, name: "short.m3u8")
        let server = try serve(folder.url.path)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(name)"
        let declared = Duration.seconds(5) * (Double(extinf)! / 1)
        let outcome: (events: [PlaybackEvent], failure: PlaybackFailure?) = try await withTaskExecutorPreference(BlockingExecutor.shared) {
            let source = try FFmpegMediaSource(location: url, options: .streamingManifests)
            #expect(source.info.exactDuration == declared)
            var events: [PlaybackEvent] = []
            do {
                _ = try await PlaybackEngine().play(source, on: VirtualClock()) { events.append($0) }
                return (events, nil)
            } catch let failure as PlaybackFailure {
                return (events, failure)
            }
        }
        let failure = try #require(outcome.failure, "the lying playlist played to its end: \(outcome.events.map(\.name))")
        guard case let .durationMismatch(_, detail) = failure.error else { Issue.record("got \(failure.error)"); return }
        #expect(failure.error.vastCode == .mediaFileDisplay)
        #expect(detail.contains("the playlist's #EXTINF durations add up to \(declared.millisecondText) s"), "\(detail)")
        #expect(!outcome.events.contains { $0.name == .complete }, "\(outcome.events.map(\.name))")
        #expect(failure.playhead == declared, "fails where the declared duration ends")
    }

    /// The honest playlist beside them plays to its end on the same engine, completing at its 10 s.
    @Test func hls_honestPlaylist_completesAtItsDeclaredEnd() async throws {
        let folder = try TemporaryFolder()
        let name = try await lyingPlaylist("2.000000", in: folder, name: "honest.m3u8")
        let server = try serve(folder.url.path)
        defer { server.stop() }
        let url = "\(server.baseURL)/\(name)"
        let events: [PlaybackEvent] = try await withTaskExecutorPreference(BlockingExecutor.shared) {
            let source = try FFmpegMediaSource(location: url, options: .streamingManifests)
            var events: [PlaybackEvent] = []
            _ = try await PlaybackEngine().play(source, on: VirtualClock()) { events.append($0) }
            return events
        }
        #expect(events.first { $0.name == .complete }?.playhead == .seconds(10))
    }

    @Test func hls_withoutStreamingOptions_staysRefusedAsAContainer() async throws {
        let server = try serve(try await HLSFixture.root())
        defer { server.stop() }
        let error = try await decodeFailure("\(server.baseURL)/hi/index.m3u8")
        #expect(error?.kind == "format-not-allowed")
    }
}
