import Primitives
import Foundation
import Testing
import TestSupport
@testable import AdSession
import PlayerEngine

/// Issue 23 through whole sessions: a streaming-labelled MP4 and HLS MediaFiles served over loopback, on the
/// virtual clock, with the one session core choosing, opening and timing them.
@Suite struct StreamingMediaTests {
    static let demoMediaFile = #"<MediaFile id="demo-360p" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223" codec="avc1.64001e"><![CDATA[clip-10s-360p.mp4]]></MediaFile>"#

    func configuration(_ folder: TemporaryFolder, mediaFile: String) throws -> SessionConfiguration {
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
        #expect(tag.contains(Self.demoMediaFile))
        var configuration = SessionConfiguration(tag: try folder.write("tag.xml", tag.replacingOccurrences(of: Self.demoMediaFile, with: mediaFile)))
        configuration.dryRun = true
        return configuration
    }

    func hls(_ url: String) -> String {
        #"<MediaFile id="hls" delivery="streaming" type="application/x-mpegURL" width="640" height="360"><![CDATA["# + url + "]]></MediaFile>"
    }

    func run(_ configuration: SessionConfiguration) async -> (SessionSummary, Recorder) {
        let recorder = Recorder()
        let summary = await AdSessionRunner(configuration: configuration).run { await recorder.add($0) }
        return (summary, recorder)
    }

    func dash(_ url: String) -> String {
        #"<MediaFile id="dash" delivery="streaming" type="application/dash+xml" width="640" height="360"><![CDATA["# + url + "]]></MediaFile>"
    }

    func serve(_ root: String? = nil, failing: String? = nil) async throws -> ScriptedHTTPServer {
        let folder: String
        if let root { folder = root } else { folder = try await HLSFixture.root() }
        return try ScriptedHTTPServer(files: folder, failing: failing)
    }

    /// A session playing `name` in `root` through `--map` from a CDN URL, as an offline replay does; it must complete.
    func replayed(_ root: String, _ name: String, as mediaFile: (String) -> String) async throws -> (SessionSummary, ResolvedInfo) {
        let folder = try TemporaryFolder()
        var configuration = try configuration(folder, mediaFile: mediaFile("http://cdn.vplay.test/ad/\(name)"))
        configuration.mappings = [.init(prefix: "http://cdn.vplay.test/ad/", directory: URL(fileURLWithPath: root, isDirectory: true))]
        let (summary, recorder) = await run(configuration)
        #expect(summary.outcome == .completed)
        return (summary, try #require(await Self.resolved(recorder)))
    }

    /// What a session played with `--bandwidth kbps` (nil: none); it must complete.
    func played(_ configuration: SessionConfiguration, kbps: Int?) async throws -> ResolvedInfo {
        var configuration = configuration
        configuration.mediaCriteria.targetBitrateKbps = kbps
        let (summary, recorder) = await run(configuration)
        #expect(summary.outcome == .completed)
        return try #require(await Self.resolved(recorder))
    }

    static func resolved(_ recorder: Recorder) async -> ResolvedInfo? {
        await recorder.records.compactMap { if case let .resolved(info) = $0 { info } else { nil } }.first
    }

    @Test func session_mp4LabelledStreaming_playsAndItsWhySaysSo() async throws {
        let folder = try TemporaryFolder()
        let file = #"<MediaFile id="s" delivery="streaming" type="video/mp4" width="640" height="360" bitrate="223"><![CDATA[file://"# + Repo.media("clip-10s-360p.mp4") + "]]></MediaFile>"
        let (summary, recorder) = await run(try configuration(folder, mediaFile: file))
        #expect(summary.outcome == .completed)
        let reason = await Self.resolved(recorder)?.mediaReason ?? ""
        #expect(reason.contains(#"labelled delivery="streaming", played as the progressive file it is (mov,mp4,m4a,3gp,3g2,mj2)"#), "\(reason)")
    }

    @Test func session_hlsOverLoopback_firesQuartilesAtExactFractionsOfThePlaylistDuration_andPresentsFFprobesFrames() async throws {
        let server = try await serve()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url = "\(server.baseURL)/hi/index.m3u8"
        let truth = try await ProbeTruth.of(url)
        let (summary, recorder) = await run(try configuration(folder, mediaFile: hls(url)))
        #expect(summary.outcome == .completed)
        let duration = Duration.milliseconds(Int64((truth.duration * 1000).rounded()))
        #expect(summary.duration == duration)
        let quartiles = await recorder.events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }
        #expect(quartiles.map(\.playhead) == [duration / 4, duration / 2, duration * 3 / 4, duration])
        let statistics = try #require(summary.playback?.statistics)
        #expect(Dictionary(uniqueKeysWithValues: statistics.streams.map { ($0.index, $0.frames) }) == truth.frames)
        #expect(await Self.resolved(recorder)?.mediaReason.hasSuffix("; HLS media playlist") == true)
    }

    @Test func session_hlsUnderMap_replaysThePlaylistAndItsSegmentsFromTheFolder() async throws {
        let root = try await HLSFixture.root()
        let (summary, info) = try await replayed(root, "master.m3u8", as: hls)
        #expect(info.media.variant == "variant 1 of 2: highest bitrate 300 kbps → #1 (application/vnd.apple.mpegurl, 300 kbps, 640x360)")
        let statistics = try #require(summary.playback?.statistics)
        #expect(Dictionary(uniqueKeysWithValues: statistics.streams.map { ($0.index, $0.frames) }) == (try await ProbeTruth.of("\(root)/hi/index.m3u8")).frames)
    }

    @Test func session_hlsMasterPlaylist_variantChosenByBandwidthAsMediaFilesAre() async throws {
        let server = try await serve()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var configuration = try configuration(folder, mediaFile: hls("\(server.baseURL)/master.m3u8"))
        let lowInfo = try await played(configuration, kbps: 150)
        #expect(lowInfo.media.video?.width == 160)
        #expect(lowInfo.mediaReason.contains("HLS variant 2 of 2: highest bitrate ≤ 150 kbps is 120 kbps"), "\(lowInfo.mediaReason)")
        let highInfo = try await played(configuration, kbps: 400)
        #expect(highInfo.media.video?.width == 640)
        #expect(highInfo.mediaReason.contains("HLS variant 1 of 2: highest bitrate ≤ 400 kbps is 300 kbps"), "\(highInfo.mediaReason)")
        // --screen alone: the largest variant that fits, as for MediaFiles.
        configuration.mediaCriteria.screenWidth = 320
        configuration.mediaCriteria.screenHeight = 180
        let screenInfo = try await played(configuration, kbps: nil)
        #expect(screenInfo.media.video?.width == 160, "\(screenInfo.mediaReason)")
    }

    @Test func session_hlsSegment404MidAd_failsWith405AtThePlayheadWhereItsDataEnds() async throws {
        let server = try await serve(failing: "/hi/seg2.ts")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (summary, recorder) = await run(try configuration(folder, mediaFile: hls("\(server.baseURL)/hi/index.m3u8")))
        #expect(summary.outcome == .mediaError)
        #expect(summary.error?.code == .mediaFileDisplay)
        #expect(summary.error?.message.contains("/hi/seg2.ts") == true, "\(summary.error?.message ?? "")")
        let error = try #require(await recorder.events.first { $0.name == .error })
        #expect(error.playhead > .milliseconds(3900) && error.playhead <= .seconds(4), "\(error.playhead): where two 2 s segments end")
        let names = await recorder.events.map(\.name)
        #expect(names.contains(.firstQuartile) && !names.contains(.midpoint))
        let beacon = await recorder.beacons.first { $0.event == "error" }
        #expect(beacon?.url.contains("code=405") == true)
    }

    @Test func fleet_ofAnHLSAd_decodingEachSession_completesEveryOneOnTheChosenVariant() async throws {
        let server = try await serve()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var session = try configuration(folder, mediaFile: hls("\(server.baseURL)/master.m3u8"))
        session.mediaCriteria.targetBitrateKbps = 150
        var fleet = FleetConfiguration(session: session, sessions: 3, mix: try FleetMix(parsing: "complete:1"))
        fleet.decodeEach = true
        let result = await FleetRunner(configuration: fleet).run()
        let report = try result.get()
        #expect(report.fleet.duration == 10)
        #expect(report.population.events["complete"] == 3)
        #expect(report.population.failures.isEmpty)
        let segments = server.requests().map(\.target).filter { $0.hasSuffix(".ts") }
        #expect(!segments.isEmpty && segments.allSatisfy { $0.hasPrefix("/lo/") }, "only the chosen variant's segments: \(Set(segments))")
        #expect(segments.filter { $0 == "/lo/seg4.ts" }.count == 4, "the verified decode and each of the 3 sessions read the last segment")
    }

    @Test func session_dashOverLoopback_firesQuartilesAtExactFractionsOfItsDuration_andPresentsFFprobesFrames() async throws {
        let server = try await serve(try await DASHFixture.root())
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url = "\(server.baseURL)/manifest.mpd"
        let (summary, recorder) = await run(try configuration(folder, mediaFile: dash(url)))
        #expect(summary.outcome == .completed)
        #expect(summary.duration == .seconds(10))
        let quartiles = await recorder.events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }
        #expect(quartiles.map(\.playhead) == [.milliseconds(2500), .seconds(5), .milliseconds(7500), .seconds(10)])
        let statistics = try #require(summary.playback?.statistics)
        let played = Dictionary(statistics.streams.map { ($0.type, $0.frames) }, uniquingKeysWith: +)
        let pictures = try await ProbeTruth.of(url, selecting: "v:0").frames.values.reduce(0, +)
        let audio = try await ProbeTruth.of(url, selecting: "a").frames.values.reduce(0, +)
        #expect(played == [.video: pictures, .audio: audio])
        let reason = await Self.resolved(recorder)?.mediaReason ?? ""
        #expect(reason.contains("; DASH representation 1 of 2 (id 0): highest bitrate"), "\(reason)")
    }

    @Test func session_dashRepresentation_chosenByBandwidthAsMediaFilesAre_andOnlyItsSegmentsRequested() async throws {
        let server = try await serve(try await DASHFixture.root())
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var configuration = try configuration(folder, mediaFile: dash("\(server.baseURL)/manifest.mpd"))
        let lowInfo = try await played(configuration, kbps: 150)
        #expect(lowInfo.media.video?.width == 160)
        #expect(lowInfo.mediaReason.contains("DASH representation 2 of 2 (id 1): highest bitrate ≤ 150 kbps is 80 kbps → #2 (application/dash+xml, 80 kbps, 160x90)"), "\(lowInfo.mediaReason)")
        let segments = server.requests().map(\.target).filter { $0.hasSuffix(".m4s") }
        #expect(!segments.contains { $0.contains("stream0") }, "only the chosen representation's segments: \(Set(segments))")
        configuration.mediaCriteria.screenWidth = 320
        configuration.mediaCriteria.screenHeight = 180
        #expect(try await played(configuration, kbps: nil).media.video?.width == 160)
    }

    @Test func session_dashSegment404MidAd_failsWith405AtThePlayheadWhereItsDataEnds() async throws {
        let failing = "/\(DASHFixture.segment(0, 3))"
        let server = try await serve(try await DASHFixture.root(), failing: failing)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (summary, recorder) = await run(try configuration(folder, mediaFile: dash("\(server.baseURL)/manifest.mpd")))
        #expect(summary.outcome == .mediaError)
        #expect(summary.error?.code == .mediaFileDisplay)
        #expect(summary.error?.message.contains(failing) == true, "\(summary.error?.message ?? "")")
        let error = try #require(await recorder.events.first { $0.name == .error })
        #expect(error.playhead > .milliseconds(3900) && error.playhead <= .seconds(4), "\(error.playhead): where two 2 s segments end")
        let beacon = await recorder.beacons.first { $0.event == "error" }
        #expect(beacon?.url.contains("code=405") == true)
    }

    @Test func session_dashUnderMap_replaysTheManifestAndItsSegmentsFromTheFolder() async throws {
        let (_, info) = try await replayed(try await DASHFixture.root(), "manifest.mpd", as: dash)
        #expect(info.media.format == "dash")
        #expect(info.media.variant?.hasPrefix("representation 1 of 2 (id 0): highest bitrate") == true, "\(info.media.variant ?? "")")
    }

    /// Under `--network` (virtual time) without `--bandwidth`, the variant is chosen by the profile's rate, and the
    /// segments download on it: the first picture waits for them, the playhead's quartiles do not move.
    @Test func session_hlsUnderNetwork_choosesTheVariantByTheProfilesRate_andWaitsForItsSegments() async throws {
        let server = try await serve()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var configuration = try configuration(folder, mediaFile: hls("\(server.baseURL)/master.m3u8"))
        configuration.network = .init(profile: try NetworkProfile(parsing: "kbps=200,rtt=50"))
        let (summary, recorder) = await run(configuration)
        #expect(summary.outcome == .completed)
        let info = try #require(await Self.resolved(recorder))
        #expect(info.mediaReason.contains("HLS variant 2 of 2: highest bitrate ≤ 200 kbps is 120 kbps"), "\(info.mediaReason)")
        let startup = try #require(summary.playback?.startupDelay)
        #expect(startup > .milliseconds(200), "two round trips and the first segment's bytes at 200 kbps: \(startup)")
        let quartiles = await recorder.events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }
        #expect(quartiles.map(\.playhead) == [.milliseconds(2500), .seconds(5), .milliseconds(7500), .seconds(10)])
    }
}
