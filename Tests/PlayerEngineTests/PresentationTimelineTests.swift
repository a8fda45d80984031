import Primitives
import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// What `ffprobe -show_frames` says of a file's audio and video frames: the oracle for the presentation timeline.
struct FrameTruth {
    /// The first video frame's presentation time (the first frame's without video), seconds in the file.
    var firstPicture: Double
    /// The furthest frame end (pts + packet duration, audio: at most pts + samples / rate), seconds in the file.
    var end: Double
    /// Video frames (pictures).
    var pictures: Int

    var duration: Double { end - firstPicture }

    static func of(_ path: String) async throws -> FrameTruth {
        let output = try await offThePool { try run("ffprobe", ["-v", "error", "-show_entries",
                                         "frame=media_type,pts_time,best_effort_timestamp_time,pkt_duration_time,nb_samples,sample_rate",
                                         "-of", "json", path]) }
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        var firstVideo: Double?
        var firstAny: Double?
        var end = -Double.infinity
        var pictures = 0
        for frame in object["frames"] as! [[String: Any]] {
            let type = frame["media_type"] as? String
            guard type == "video" || type == "audio",
                  let time = ((frame["best_effort_timestamp_time"] ?? frame["pts_time"]) as? String).flatMap(Double.init) else { continue }
            var last = time + ((frame["pkt_duration_time"] as? String).flatMap(Double.init) ?? 0)
            if type == "audio", let samples = frame["nb_samples"] as? Int, let rate = (frame["sample_rate"] as? String).flatMap(Double.init), rate > 0 {
                last = frame["pkt_duration_time"] == nil ? time + Double(samples) / rate : min(last, time + Double(samples) / rate)
            }
            end = max(end, last)
            firstAny = min(firstAny ?? time, time)
            if type == "video" { firstVideo = min(firstVideo ?? time, time); pictures += 1 }
        }
        return FrameTruth(firstPicture: firstVideo ?? firstAny!, end: end, pictures: pictures)
    }
}

/// Issue 14, item 4: quartiles and progress are measured on the ad's presentation timeline, from its first shown
/// picture to the end of its last frame, whatever the file's first timestamp; and item 5: on the duration the frames
/// have, whatever the header declares.
@Suite struct PresentationTimelineTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func ffmpeg(_ arguments: [String]) async throws { try await runOffThePool("ffmpeg", ["-v", "error", "-y"] + arguments) }

    func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

    /// Plays `path` on the virtual clock; returns its events, report and source.
    func play(_ path: String, configuration: PlaybackEngine.Configuration = .init()) async throws -> ([PlaybackEvent], PlaybackReport, FFmpegMediaSource) {
        // FFmpeg blocks the thread it runs on: on the media executor, as in a session, not on the cooperative pool
        // that the rest of the suite's tasks (sinks, drains, timers) share.
        try await withTaskExecutorPreference(BlockingExecutor.shared) {
            let source = try FFmpegMediaSource(location: path)
            let clock = VirtualClock()
            var events: [PlaybackEvent] = []
            let report = try await PlaybackEngine(configuration: configuration).play(source, on: clock) { events.append($0) }
            return (events, report, source)
        }
    }

    /// The quartiles of a play fire at exactly 1/4, 1/2, 3/4 and all of the measured duration from the first picture,
    /// which agrees with ffprobe's frames to ffprobe's printed precision, and every picture is shown.
    func expectExactQuartiles(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let truth = try await FrameTruth.of(path)
        let (events, report, source) = try await play(path)
        let timeline = source.info.timeline
        #expect(abs(timeline.start.seconds - truth.firstPicture) < 0.000_002, "starts at \(timeline.start), ffprobe \(truth.firstPicture)", sourceLocation: sourceLocation)
        #expect(abs(timeline.end.seconds - truth.end) < 0.000_002, "ends at \(timeline.end), ffprobe \(truth.end)", sourceLocation: sourceLocation)
        let duration = timeline.duration
        #expect(source.info.exactDuration == duration, sourceLocation: sourceLocation)
        #expect(report.duration == duration, sourceLocation: sourceLocation)
        let expected: [(PlaybackEvent.Name, Duration)] = [
            (.start, .zero), (.firstQuartile, duration / 4), (.midpoint, duration / 2), (.thirdQuartile, duration * 3 / 4), (.complete, duration),
        ]
        for (name, at) in expected {
            let event = try #require(events.first { $0.name == name }, "\(name)", sourceLocation: sourceLocation)
            #expect(event.playhead == at, "\(name) at playhead \(event.playhead), expected \(at)", sourceLocation: sourceLocation)
            #expect(event.clock == at, "\(name) at clock \(event.clock), expected \(at)", sourceLocation: sourceLocation)
        }
        #expect(report.completed, sourceLocation: sourceLocation)
        #expect(report.videoFramesPresented == truth.pictures, "every picture shown", sourceLocation: sourceLocation)
    }

    // MARK: - Item 4: the origin

    @Test func play_videoStartingAtOneSecond_quartilesCountFromTheFirstPicture() async throws {
        // `-itsoffset 1` on a 5 s video: its pictures are at 1…6 s of the file, and the header says 6 s. The
        // quartiles used to fall at 1.5/3/4.5 s of play and complete a second after the last picture.
        try await ffmpeg(["-itsoffset", "1", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", path("offset.mp4")])
        let (events, _, source) = try await play(path("offset.mp4"))
        #expect(source.info.timeline.start == .seconds(1))
        #expect(source.info.timeline.end == .seconds(6))
        #expect(source.info.exactDuration == .seconds(5))
        #expect(events.filter { [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains($0.name) }.map(\.playhead)
            == [.milliseconds(1250), .milliseconds(2500), .milliseconds(3750), .seconds(5)])
        #expect(events.first { $0.name == .start }?.playhead == .zero, "the first picture is playhead 0")
        try await expectExactQuartiles(path("offset.mp4"))
    }

    /// A reopen (a replay, a fleet session decoding for itself) takes the timeline the first open measured, rather
    /// than reading the whole file through again: the one it is given is used as it is.
    @Test func open_withAKnownTimeline_usesIt_withoutASecondPass() async throws {
        try await ffmpeg(["-itsoffset", "1", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", path("known.mp4")])
        try await withTaskExecutorPreference(BlockingExecutor.shared) {
            var timed = MediaOpenOptions()
            timed.passStopwatch = { ContinuousClock().stopwatch() }
            let first = try FFmpegMediaSource(location: path("known.mp4"), options: timed)
            #expect(first.info.timeline.measuredBy == .frames && first.info.timeline.passTime != nil)
            // Without a stopwatch the pass is not timed: the source reads no clock of its own.
            #expect(try FFmpegMediaSource(location: path("known.mp4")).info.timeline.passTime == nil)
            // Marked as the index's, so a pass (which would say `.frames` and time itself) would show.
            let known = PresentationTimeline(start: first.info.timeline.start, end: first.info.timeline.end, measuredBy: .streams,
                                             frame: first.info.timeline.frame)
            var options = MediaOpenOptions()
            options.knownTimeline = known
            let again = try FFmpegMediaSource(location: path("known.mp4"), options: options)
            #expect(again.info.timeline == known)
            #expect(again.info.exactDuration == .seconds(5))
        }
    }

    @Test func play_outputTimestampOffset_quartilesExactOnTheFramesTimeline() async throws {
        try await ffmpeg(["-i", Repo.media("clip-10s-360p.mp4"), "-c", "copy", "-output_ts_offset", "1.5", path("ts-offset.mp4")])
        let (_, _, source) = try await play(path("ts-offset.mp4"))
        #expect(source.info.timeline.start == .milliseconds(1500))
        try await expectExactQuartiles(path("ts-offset.mp4"))
    }

    @Test func play_videoStartingTwoSecondsAfterAudio_quartilesCountFromThePicture() async throws {
        // Sound from 0 s, pictures from 2 s: sound before the first picture plays as it is shown, and the ad's
        // timeline is its pictures' (2–12 s of the file), not the file's 12 s.
        let clip = Repo.media("clip-10s-360p.mp4")
        try await ffmpeg(["-i", clip, "-itsoffset", "2", "-i", clip, "-map", "1:v", "-map", "0:a", "-c", "copy", path("late-video.mp4")])
        let (_, _, source) = try await play(path("late-video.mp4"))
        #expect(source.info.timeline.start == .seconds(2))
        #expect(source.info.exactDuration == .seconds(10))
        try await expectExactQuartiles(path("late-video.mp4"))
    }

    @Test func play_trimmedWithAnEditList_discardedFramesDoNotCount() async throws {
        // `-ss` with `-c copy` keeps the GOP before the cut and hides it with an edit list: those pictures are
        // decoded but never shown, so they are not on the timeline.
        try await ffmpeg(["-ss", "1.3", "-i", Repo.media("clip-10s-360p.mp4"), "-c", "copy", path("trimmed.mp4")])
        try await expectExactQuartiles(path("trimmed.mp4"))
    }

    /// x264 with B-frames, its MP4 written without an edit list: the first picture is two frames after 0 (where
    /// the audio starts), and the header's duration counts from 0, so quartiles fired 17–50 ms early.
    func bFrames() async throws -> String {
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=4", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=4",
                          "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac", "-use_editlist", "0",
                          path("bframes.mp4")])
        return path("bframes.mp4")
    }

    @Test func play_bFramesWithoutAnEditList_quartilesExact() async throws {
        let file = try await bFrames()
        let (_, _, source) = try await play(file)
        #expect(source.info.timeline.start == .seconds(2) / 30, "two frames of reordering delay")
        #expect(source.info.exactDuration == .seconds(4))
        try await expectExactQuartiles(file)
    }

    @Test func play_fragmentedBFrames_quartilesExact() async throws {
        let file = try await bFrames()
        try await ffmpeg(["-i", file, "-c", "copy", "-movflags", "frag_keyframe+empty_moov", path("fragmented.mp4")])
        // Fragmenting keeps the pictures' times; the last AAC packet loses its trim, so the sound ends 10.7 ms after
        // the last picture, and the timeline with it (ffprobe's frames say the same).
        let (_, _, source) = try await play(path("fragmented.mp4"))
        #expect(source.info.timeline.start == .seconds(2) / 30)
        #expect(source.info.timeline.measuredBy == .frames)
        try await expectExactQuartiles(path("fragmented.mp4"))
    }

    @Test func play_clipStartingAtZero_isUnchanged() async throws {
        let (_, _, source) = try await play(Repo.media("clip-10s-360p.mp4"))
        #expect(source.info.timeline == PresentationTimeline(start: .zero, end: .seconds(10), measuredBy: .frames, frame: .seconds(1) / 24))
        #expect(source.info.declaredDuration == .seconds(10))
        #expect(source.info.durationMismatch == nil)
        try await expectExactQuartiles(Repo.media("clip-10s-360p.mp4"))
    }

    // MARK: - Item 5: a duration that lies

    /// `clip` with its `mvhd` duration (the one FFmpeg gives as the container's) replaced by `transform` of it.
    func lyingHeader(_ clip: String, _ name: String, _ transform: (UInt64) -> UInt64) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: Repo.media(clip)))
        let box = byteOffset(of: "mvhd", in: data)
        let version = data[box + 4]
        let offset = box + 4 + 4 + (version == 1 ? 16 : 8) + 4
        let width = version == 1 ? 8 : 4
        let old = data[offset..<offset + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let new = min(transform(old), version == 1 ? UInt64.max : UInt64(UInt32.max))
        for byte in 0..<width { data[offset + byte] = UInt8(truncatingIfNeeded: new >> (8 * UInt64(width - 1 - byte))) }
        try data.write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    @Test func play_headerDurationTimesTen_quartilesOnTheFramesDurationAndAWarningNamingBoth() async throws {
        let file = try lyingHeader("clip-5s-video-only.mp4", "long.mp4") { $0 * 10 }
        let (events, report, source) = try await play(file)
        #expect(source.info.declaredDuration == .seconds(50))
        #expect(source.info.exactDuration == .seconds(5))
        #expect(events.first { $0.name == .firstQuartile }?.playhead == .milliseconds(1250))
        #expect(events.first { $0.name == .complete }?.clock == .seconds(5))
        #expect(report.clock == .seconds(5))
        let warning = try #require(source.info.durationMismatch)
        #expect(warning.contains("50.000 s") && warning.contains("5.000 s"), "\(warning)")
    }

    @Test func play_headerDurationDividedByTen_showsEveryPictureBeforeComplete() async throws {
        // It used to complete after 15 of the 150 pictures, exit 0.
        let file = try lyingHeader("clip-5s-video-only.mp4", "short.mp4") { $0 / 10 }
        let (events, report, source) = try await play(file)
        #expect(source.info.declaredDuration == .milliseconds(500))
        #expect(report.videoFramesPresented == 150)
        #expect(events.first { $0.name == .complete }?.playhead == .seconds(5))
        #expect(source.info.durationMismatch != nil)
    }

    @Test func play_largestHeaderDuration_lastsTheFramesDuration() async throws {
        // 0xFFFFFFFF ms: a real-time run lasted 49 days.
        let file = try lyingHeader("clip-5s-video-only.mp4", "max.mp4") { _ in .max }
        let (_, report, source) = try await play(file)
        #expect(source.info.exactDuration == .seconds(5))
        #expect(report.clock == .seconds(5))
    }

    @Test func play_zeroHeaderDuration_plays() async throws {
        // "The container gives no duration" used to fail it with 405.
        let file = try lyingHeader("clip-10s-360p.mp4", "zero.mp4") { _ in 0 }
        let (_, report, source) = try await play(file)
        #expect(source.info.declaredDuration == .zero)
        #expect(report.completed)
        #expect(report.duration == .seconds(10))
        #expect(source.info.durationMismatch?.contains("0.000 s") == true)
    }

    @Test func play_webMWrittenLive_withNoDurationPlays() async throws {
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2", "-c:v", "libvpx", "-b:v", "200k",
                          "-live", "1", "-f", "webm", path("live.webm")])
        let (_, _, source) = try await play(path("live.webm"))
        #expect(source.info.declaredDuration == nil)
        #expect(source.info.durationMismatch == nil)
        try await expectExactQuartiles(path("live.webm"))
    }

    @Test func open_remoteMedia_timesOnTheSampleTablesNotTheHeader() async throws {
        // Remote media is requested once (no demux pass): the MP4 index's stream timings, not `mvhd`.
        _ = try lyingHeader("clip-5s-video-only.mp4", "long.mp4") { $0 * 10 }
        let server = try ScriptedHTTPServer(files: folder.url.path)
        defer { server.stop() }
        let location = "http://127.0.0.1:\(server.port)/long.mp4"
        let info = try await offThePool { try FFmpegMediaSource(location: location).info }
        #expect(info.timeline.measuredBy == .streams)
        #expect(info.exactDuration == .seconds(5))
        #expect(info.durationMismatch != nil)
        #expect(server.connections == 1)
    }
}
