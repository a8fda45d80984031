import AdSession
import Foundation
import Primitives
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Issue 23: DASH media, on a manifest made at test time (`DASHFixture`) and served over loopback: one video and one
/// audio representation played, every segment URL checked by vplay, nothing of the others requested.
@Suite struct DASHMediaTests {
    func serve(_ root: String, failing: String? = nil) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer(files: root, failing: failing)
    }

    /// Frames decoded per stream type.
    func frames(_ statistics: DecodeStatistics) -> [StreamInfo.Kind: Int] {
        Dictionary(statistics.streams.map { ($0.type, $0.frames) }, uniquingKeysWith: +)
    }

    /// ffprobe's count on the same manifest, reading only the representations vplay plays (`v:N` and the audio).
    func truth(_ url: String, video: Int) async throws -> [StreamInfo.Kind: Int] {
        let pictures = try await ProbeTruth.of(url, selecting: "v:\(video)").frames.values.reduce(0, +)
        let audio = try await ProbeTruth.of(url, selecting: "a").frames.values.reduce(0, +)
        return [.video: pictures, .audio: audio]
    }

    /// ffprobe's count on the single-file fixture's two whole files (its video and its audio).
    func singleFileTruth(_ root: String) async throws -> [StreamInfo.Kind: Int] {
        let pictures = try await ProbeTruth.of("\(root)/single/manifest-stream0.mp4").frames.values.reduce(0, +)
        let audio = try await ProbeTruth.of("\(root)/single/manifest-stream1.mp4").frames.values.reduce(0, +)
        return [.video: pictures, .audio: audio]
    }

    @Test func dash_remoteManifest_playsTheHighestBandwidthVideoAndTheAudio_asFFprobeCountsThem() async throws {
        let server = try serve(try await DASHFixture.root())
        defer { server.stop() }
        let url = "\(server.baseURL)/manifest.mpd"
        let (statistics, error) = try await decodeToTheEnd(url, options: .streamingManifests)
        #expect(error == nil)
        let targets = server.requests().map(\.target)
        #expect(targets.filter { $0 == "/manifest.mpd" }.count == 1, "the manifest is requested once: \(targets)")
        #expect(!targets.contains { $0.contains("stream1") }, "nothing of the other video representation: \(targets)")
        #expect(targets.contains("/init-stream0.m4s") && targets.contains("/\(DASHFixture.segment(0, 5))")
                && targets.contains("/\(DASHFixture.segment(2, 6))"), "\(targets)")
        #expect(frames(statistics) == (try await truth(url, video: 0)))
        let info = try await offThePool { try FFmpegMediaSource(location: url, options: .streamingManifests).info }
        #expect(info.format == "dash")
        #expect(info.video?.width == 640)
        #expect(info.exactDuration == .seconds(10))
        #expect(info.duration == (try await ProbeTruth.of(url)).duration)
        #expect(info.variant == "representation 1 of 2 (id 0): highest BANDWIDTH; audio representation 1 of 1 (id 2), the highest bandwidth of its set")
    }

    @Test func dash_representationChosenByTheChooser_isTheOnlyVideoRequested() async throws {
        let server = try serve(try await DASHFixture.root())
        defer { server.stop() }
        var options = MediaOpenOptions.streamingManifests
        options.streaming = StreamingOptions(chooseVariant: { variants in
            #expect(variants.map(\.width) == [640, 160])
            #expect(variants.map(\.height) == [360, 90])
            #expect(variants[1].bandwidth == 80_000)
            #expect((variants[0].bandwidth ?? 0) > 80_000)
            return VariantChoice(index: 1, reason: "the test's choice")
        })
        let url = "\(server.baseURL)/manifest.mpd"
        let (statistics, error) = try await decodeToTheEnd(url, options: options)
        #expect(error == nil)
        let segments = server.requests().map(\.target).filter { $0.hasSuffix(".m4s") }
        #expect(!segments.contains { $0.contains("stream0") }, "\(segments)")
        #expect(segments.contains("/\(DASHFixture.segment(1, 5))") && segments.contains("/\(DASHFixture.segment(2, 6))"))
        #expect(frames(statistics) == (try await truth(url, video: 1)))
        let chosen = [options]
        let info = try await offThePool { try FFmpegMediaSource(location: url, options: chosen[0]).info }
        #expect(info.video?.width == 160)
        #expect(info.variant?.hasPrefix("representation 2 of 2 (id 1): the test's choice") == true)
    }

    /// One file per representation, its initialization and segments named by byte range: each is a range request
    /// through the nested policy (an HLS `BYTERANGE` to FFmpeg), and the frames are ffprobe's on the whole files.
    /// (Not on the manifest: FFmpeg 5.1.9's dash demuxer misreads this manifest its own muxer wrote, "Invalid NAL
    /// unit size", and `ffprobe -count_frames` on it does not finish in 30 s.)
    @Test func dash_segmentListOfByteRanges_requestsEachRange() async throws {
        let root = try await DASHFixture.root()
        let server = try serve(root)
        defer { server.stop() }
        let url = "\(server.baseURL)/single/manifest.mpd"
        let (statistics, error) = try await decodeToTheEnd(url, options: .streamingManifests)
        #expect(error == nil)
        let video = server.requests().filter { $0.target == "/single/manifest-stream0.mp4" }
        #expect(video.count == 6, "the initialization and five segments: \(video.map { $0.header("Range") ?? "-" })")
        #expect(video.allSatisfy { $0.header("Range")?.hasPrefix("bytes=") == true }, "\(video.map { $0.header("Range") ?? "-" })")
        #expect(frames(statistics) == (try await singleFileTruth(root)))
    }

    /// The on-demand profile: one indexed fMP4 per representation (`BaseURL` and `SegmentBase`), each played whole.
    @Test func dash_onDemandProfile_playsEachRepresentationsFileWhole() async throws {
        let root = try await DASHFixture.root()
        let folder = try TemporaryFolder()
        for file in ["manifest-stream0.mp4", "manifest-stream1.mp4"] {
            try FileManager.default.copyItem(atPath: "\(root)/single/\(file)", toPath: folder.url.appendingPathComponent(file).path)
        }
        _ = try folder.write("ondemand.mpd", """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT10S">
              <Period>
                <AdaptationSet contentType="video"><Representation id="v" bandwidth="183539" width="640" height="360">
                  <BaseURL>manifest-stream0.mp4</BaseURL><SegmentBase indexRange="836-887"><Initialization range="0-835"/></SegmentBase>
                </Representation></AdaptationSet>
                <AdaptationSet contentType="audio"><Representation id="a" bandwidth="32485">
                  <BaseURL>manifest-stream1.mp4</BaseURL><SegmentBase indexRange="765-816"><Initialization range="0-764"/></SegmentBase>
                </Representation></AdaptationSet>
              </Period>
            </MPD>
            """)
        let server = try serve(folder.url.path)
        defer { server.stop() }
        let (statistics, error) = try await decodeToTheEnd("\(server.baseURL)/ondemand.mpd", options: .streamingManifests)
        #expect(error == nil)
        #expect(server.requests().map(\.target) == ["/ondemand.mpd", "/manifest-stream1.mp4", "/manifest-stream0.mp4"]
                || server.requests().map(\.target) == ["/ondemand.mpd", "/manifest-stream0.mp4", "/manifest-stream1.mp4"], "\(server.requests().map(\.target))")
        #expect(frames(statistics) == (try await singleFileTruth(root)))
    }

    @Test func dash_segmentAnswering404MidAd_failsTruncatedWhereItsDataEnds() async throws {
        let failing = "/\(DASHFixture.segment(0, 3))"
        let server = try serve(try await DASHFixture.root(), failing: failing)
        defer { server.stop() }
        let (statistics, error) = try await decodeToTheEnd("\(server.baseURL)/manifest.mpd", options: .streamingManifests)
        guard case let .truncated(_, detail) = error else { Issue.record("expected truncated, got \(String(describing: error))"); return }
        #expect(error?.vastCode == .mediaFileDisplay)
        #expect(detail.contains(failing), "\(detail)")
        // Two 2 s segments played: the last picture ends where the third segment would have begun.
        let video = try #require(statistics.streams.first { $0.type == .video })
        #expect(abs((video.end ?? 0) - 4.0) < 0.05, "video ends at \(video.end ?? 0)")
        #expect(!server.requests().contains { $0.target == "/\(DASHFixture.segment(0, 4))" }, "nothing is read after the failed segment")
    }

    /// A manifest whose segments are local files, by `SegmentTemplate` or `BaseURL`, in any spelling of `file:`.
    @Test func dash_remoteManifestNamingLocalFiles_isRefusedBeforeAnySegmentIsRequested() async throws {
        let root = try await DASHFixture.root()
        for base in ["file://\(root)/", "FILE://\(root)/", "file://otherhost\(root)/", "file:\(root)/"] {
            let folder = try TemporaryFolder()
            let template = #"<SegmentTemplate timescale="1" initialization="\#(base)init-stream0.m4s" media="chunk-stream0-$Number%05d$.m4s" duration="2"/>"#
            _ = try folder.write("evil.mpd", Self.manifest(representation: template))
            let viaBase = try folder.write("base.mpd", Self.manifest(representation: #"<BaseURL>\#(base)</BaseURL><SegmentTemplate timescale="1" media="chunk-stream0-$Number%05d$.m4s" duration="2"/>"#))
            let server = try serve(folder.url.path)
            defer { server.stop() }
            let error = try await decodeFailure("\(server.baseURL)/evil.mpd", options: .streamingManifests)
            #expect(error == .schemeNotAllowed(location: "\(base)init-stream0.m4s"), "\(base)")
            let baseError = try await decodeFailure("\(server.baseURL)/\(URL(fileURLWithPath: viaBase).lastPathComponent)", options: .streamingManifests)
            #expect(baseError?.kind == "scheme-not-allowed", "\(base)")
            #expect(server.requests().map(\.target) == ["/evil.mpd", "/base.mpd"], "\(base)")
        }
    }

    @Test func dash_liveMultiPeriodAndEncryptedManifests_areRefusedNamingWhy() async throws {
        let folder = try TemporaryFolder()
        let template = #"<SegmentTemplate timescale="1" media="chunk-stream0-$Number%05d$.m4s" duration="2"/>"#
        _ = try folder.write("live.mpd", Self.manifest(representation: template).replacingOccurrences(of: #"type="static""#, with: #"type="dynamic""#))
        _ = try folder.write("periods.mpd", Self.manifest(representation: template).replacingOccurrences(
            of: "</Period>", with: "</Period><Period id=\"2\" duration=\"PT2S\"></Period>"))
        _ = try folder.write("drm.mpd", Self.manifest(representation: template).replacingOccurrences(
            of: "<Representation", with: #"<ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"/><Representation"#))
        let server = try serve(folder.url.path)
        defer { server.stop() }
        let live = try await decodeFailure("\(server.baseURL)/live.mpd", options: .streamingManifests)
        #expect(live?.kind == "format-not-allowed")
        #expect(live?.description.contains(#"type="dynamic""#) == true, "\(String(describing: live))")
        let periods = try await decodeFailure("\(server.baseURL)/periods.mpd", options: .streamingManifests)
        #expect(periods?.kind == "format-not-allowed")
        #expect(periods?.description.contains("2 periods") == true, "\(String(describing: periods))")
        let drm = try await decodeFailure("\(server.baseURL)/drm.mpd", options: .streamingManifests)
        #expect(drm?.kind == "format-not-allowed")
        #expect(drm?.description.contains("ContentProtection urn:mpeg:dash:mp4protection:2011") == true, "\(String(describing: drm))")
        #expect(server.requests().map(\.target) == ["/live.mpd", "/periods.mpd", "/drm.mpd"], "no segment of any")
    }

    @Test func dash_localManifest_playsFromItsFolder_andASegmentOutsideItIsRefused() async throws {
        let root = try await DASHFixture.root()
        let manifest = "\(root)/manifest.mpd"
        let (statistics, error) = try await decodeToTheEnd(manifest, options: .streamingManifests)
        #expect(error == nil)
        #expect(frames(statistics) == (try await truth(manifest, video: 0)))
        let folder = try TemporaryFolder()
        let inside = folder.url.appendingPathComponent("ad")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(root)/init-stream0.m4s", toPath: folder.url.appendingPathComponent("init-stream0.m4s").path)
        let template = #"<SegmentTemplate timescale="1" initialization="../init-stream0.m4s" media="chunk-stream0-$Number%05d$.m4s" duration="2"/>"#
        try Data(Self.manifest(representation: template).utf8).write(to: inside.appendingPathComponent("manifest.mpd"))
        let refusal = try await decodeFailure(inside.appendingPathComponent("manifest.mpd").path, options: .streamingManifests)
        #expect(refusal?.kind == "scheme-not-allowed")
        #expect(refusal?.description.contains("init-stream0.m4s") == true)
    }

    /// Under a simulated network an HLS or DASH ad downloads its segments in request order: the map's bytes are
    /// exactly the files FFmpeg read, each once (vplay's own look at a playlist is not media).
    @Test func streamingDeliveryMap_isTheBytesOfThePlayedFilesOnly() async throws {
        let dash = try await DASHFixture.root(), hls = try await HLSFixture.root()
        func size(_ path: String) throws -> Int64 { (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? -1 }
        let dashFiles = ["init-stream0.m4s", "init-stream2.m4s"] + (1...5).map { DASHFixture.segment(0, $0) } + (1...6).map { DASHFixture.segment(2, $0) }
        let hlsFiles = ["hi/index.m3u8"] + (0...4).map { "hi/seg\($0).ts" }
        for (manifest, files) in [("\(dash)/manifest.mpd", dashFiles.map { "\(dash)/\($0)" }), ("\(hls)/master.m3u8", hlsFiles.map { "\(hls)/\($0)" })] {
            let map = try await offThePool {
                try FFmpegMediaSource.deliveryMap(location: manifest, options: .streamingManifests, timelineStart: .zero)
            }
            let expected = try files.map(size).reduce(0, +)
            #expect(map.size == expected, "\(manifest)")
            #expect(map.bytesNeeded(through: .seconds(11)) == expected, "\(manifest)")
            #expect(map.bytesNeeded(through: .seconds(1)) < expected / 2, "\(manifest): the first second needs its first segments only")
        }
    }

    @Test func streaming_underARealTimeNetworkThrottle_isRefusedNamingWhy() async throws {
        var options = MediaOpenOptions.streamingManifests
        // A stopwatch an hour on: every byte has arrived, so only the refusal can stop the open.
        options.throttle = MediaThrottle(profile: try NetworkProfile(parsing: "kbps=1000"), speed: 1, stopwatch: { { .seconds(3600) } })
        for manifest in ["\(try await DASHFixture.root())/manifest.mpd", "\(try await HLSFixture.root())/master.m3u8"] {
            let error = try await decodeFailure(manifest, options: options)
            #expect(error?.kind == "format-not-allowed", "\(manifest)")
            #expect(error?.description.contains("under --network in real time") == true, "\(String(describing: error))")
        }
    }

    @Test func dash_withoutStreamingOptions_staysRefusedAsAContainer() async throws {
        let server = try serve(try await DASHFixture.root())
        defer { server.stop() }
        let error = try await decodeFailure("\(server.baseURL)/manifest.mpd")
        #expect(error?.kind == "format-not-allowed")
    }

    /// A one-period static manifest of 10 s with one video representation addressed by `representation`.
    static func manifest(representation: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="PT10.0S">
          <Period id="0" start="PT0.0S">
            <AdaptationSet id="0" contentType="video">
              <Representation id="0" mimeType="video/mp4" bandwidth="183539" width="640" height="360">\(representation)</Representation>
            </AdaptationSet>
          </Period>
        </MPD>
        """
    }
}
