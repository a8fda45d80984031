import Primitives
import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// The FFmpeg media layer decodes real MP4 files and agrees with `ffprobe -count_frames` exactly.
@Suite struct MediaDecodingTests {
    static let clips = ["clip-10s-360p.mp4", "clip-5s-video-only.mp4", "clip-audio-outlasts-video.mp4"]

    func decodeAll(_ path: String, threads: Int = 0) throws -> FFmpegMediaSource {
        let source = try FFmpegMediaSource(location: path, options: MediaOpenOptions(decoderThreads: threads))
        var previous: Duration = .seconds(-1)
        while let frame = try source.nextFrame() {
            #expect(frame.time >= previous, "frames come in presentation order across streams")
            previous = frame.time
        }
        return source
    }

    /// Frame counts, the container's declared duration and the frames' (the ad's duration: the IAB clip's header says
    /// 8 µs less than its last AAC frame's end), and the decoded end of every stream (its last frame's end) against
    /// ffprobe's `start_time + duration`: audio included, whose last AAC frame the container trims (680 of 1024
    /// samples in the 10 s clip). Both durations are known before decoding.
    func expectMatchesFFprobe(_ path: String) async throws {
        let truth = try await ProbeTruth.of(path)
        let frames = try await FrameTruth.of(path)
        let source = try decodeAll(path)
        let declared = source.info.declaredDuration?.seconds ?? -1
        #expect(abs(declared - truth.duration) < 0.000_001, "declared duration \(declared) vs ffprobe \(truth.duration)")
        #expect(abs(source.info.duration - frames.duration) < 0.000_002, "duration \(source.info.duration) vs ffprobe's frames \(frames.duration)")
        #expect(source.info.durationMismatch == nil)
        for stream in source.statistics.streams {
            #expect(stream.frames == truth.frames[stream.index], "stream #\(stream.index) of \(path)")
            #expect(stream.decodeErrors == 0)
            let expected = try #require(truth.streamEnds[stream.index], "ffprobe gives no duration for #\(stream.index)")
            let end = try #require(stream.end)
            // ffprobe prints 6 decimals: up to 1.5 µs of rounding over start + duration - container start.
            #expect(abs(end - expected) < 0.000_002, "stream #\(stream.index) of \(path) ends at \(end), ffprobe \(expected)")
        }
        #expect(source.statistics.streams.count == truth.frames.count)
    }

    @Test(arguments: clips)
    func decode_mediaClip_frameCountsDurationAndStreamEndsEqualFFprobe(_ clip: String) async throws {
        try await expectMatchesFFprobe(Repo.media(clip))
    }

    @Test(.enabled(if: Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func decode_iabShortIntro_frameCountsDurationAndStreamEndsEqualFFprobe() async throws {
        try await expectMatchesFFprobe(Repo.iabMP4)
    }

    @Test func decode_tenSecondClip_lastVideoFrameEndsAtExactlyTenSeconds() throws {
        let source = try decodeAll(Repo.media("clip-10s-360p.mp4"))
        let video = try #require(source.statistics.streams.first { $0.type == .video })
        #expect(video.frames == 240)
        #expect(video.firstTime == 0)
        #expect(video.end == 10.0)
        #expect(source.info.exactDuration == .seconds(10))
    }

    @Test func decode_singleThreadAndAutoThreads_giveTheSameFrames() throws {
        let one = try decodeAll(Repo.media("clip-10s-360p.mp4"), threads: 1)
        let auto = try decodeAll(Repo.media("clip-10s-360p.mp4"), threads: 0)
        #expect(one.statistics.streams.map(\.frames) == auto.statistics.streams.map(\.frames))
    }

    @Test func info_tenSecondClip_describesEveryStream() throws {
        let info = try FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")).info
        #expect(info.format.contains("mp4"))
        #expect(info.duration == 10.0)
        let video = try #require(info.video)
        #expect(video.codec == "h264" && video.width == 640 && video.height == 360 && video.fps == 24 && video.decodable)
        let audio = try #require(info.audio)
        #expect(audio.codec == "aac" && audio.sampleRate == 44100 && audio.channels == 1 && audio.decodable)
        #expect((info.bitRate ?? 0) > 0)
    }

    @Test func info_audioOutlastsVideo_durationIsTheLongestTrack() throws {
        let source = try decodeAll(Repo.media("clip-audio-outlasts-video.mp4"))
        #expect(source.info.duration == 6.0)
        #expect(source.info.video?.duration == 4.0)
        #expect(source.statistics.streams.first { $0.type == .video }?.end == 4.0)
    }

    @Test func demux_tenSecondClip_readsEveryPacketWithoutDecoding() throws {
        let path = Repo.media("clip-10s-360p.mp4")
        let source = try FFmpegMediaSource(location: path)
        var count = 0
        var keyFrames = 0
        while let packet = try source.nextPacket() {
            count += 1
            if packet.isKeyFrame && packet.stream == 0 { keyFrames += 1 }
        }
        #expect(source.statistics.streams[0].frames == 240)
        #expect(count == source.statistics.frames)
        #expect(keyFrames == 5, "one key frame every 48 frames (-g 48) over 240 frames")
    }

    /// `vplay probe --demux` opens no decoder (their threads and buffers put its peak RSS above `ffmpeg -c copy`'s):
    /// the pass must read the same packets and describe the same streams as one with decoders open.
    @Test func demux_withoutDecoders_readsTheSamePacketsAndInfo() throws {
        let path = Repo.media("clip-10s-360p.mp4")
        func demux(_ options: MediaOpenOptions) throws -> (MediaInfo, DecodeStatistics, [MediaPacket]) {
            let source = try FFmpegMediaSource(location: path, options: options)
            var packets: [MediaPacket] = []
            while let packet = try source.nextPacket() { packets.append(packet) }
            return (source.info, source.statistics, packets)
        }
        let with = try demux(MediaOpenOptions())
        let without = try demux(MediaOpenOptions(openDecoders: false))
        #expect(without.0 == with.0)
        #expect(without.1 == with.1)
        #expect(without.2 == with.2)
        #expect(without.1.streams.map(\.frames) == [240, 432], "packets per stream")
        #expect(try FFmpegMediaSource(location: path, options: MediaOpenOptions(openDecoders: false)).nextFrame() == nil)
    }

    @Test func decode_overLoopbackHTTP_equalsTheLocalFile() async throws {
        let server = try ScriptedHTTPServer(files: Repo.root.appendingPathComponent("media").path)
        defer { server.stop() }
        let source = try decodeAll("http://127.0.0.1:\(server.port)/clip-5s-video-only.mp4")
        #expect(source.statistics.streams.map(\.frames) == [150])
        #expect(source.info.duration == 5.0)
    }
}
