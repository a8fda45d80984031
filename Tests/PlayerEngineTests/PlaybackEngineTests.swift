import Primitives
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// The clock-driven engine, on the virtual clock, with real clips decoded by FFmpeg: exact times.
@Suite struct PlaybackEngineTests {
    func play(_ clip: String, configuration: PlaybackEngine.Configuration = .init()) async throws -> ([PlaybackEvent], PlaybackReport, VirtualClock) {
        let source = try FFmpegMediaSource(location: Repo.media(clip))
        let clock = VirtualClock()
        var events: [PlaybackEvent] = []
        let report = try await PlaybackEngine(configuration: configuration).play(source, on: clock) { events.append($0) }
        return (events, report, clock)
    }

    @Test func play_tenSecondClip_firesEveryEventAtItsExactPlayheadAndClock() async throws {
        let (all, report, _) = try await play("clip-10s-360p.mp4")
        let events = Array(all.prefix(8))
        #expect(all.map(\.name).dropFirst(8) == [.replayShown, .closeShown, .closeLinear, .close], "then the replay screen, closed at once")
        let expected: [(PlaybackEvent.Name, Duration)] = [
            (.loaded, .zero), (.impression, .zero), (.creativeView, .zero), (.start, .zero),
            (.firstQuartile, .milliseconds(2500)), (.midpoint, .seconds(5)), (.thirdQuartile, .milliseconds(7500)), (.complete, .seconds(10)),
        ]
        #expect(events.map(\.name) == expected.map(\.0))
        #expect(events.map(\.playhead) == expected.map(\.1))
        #expect(events.map(\.clock) == expected.map(\.1), "nothing paused: the session clock equals the playhead")
        #expect(report.completed)
        #expect(report.framesPresented == 240 + 431, "every video and audio frame is presented")
        #expect(report.framesLate == 0 && report.stalls == 0 && report.maxBoundaryLateness == .zero)
    }

    @Test func play_virtualClock_endsAtTheAdsDuration() async throws {
        let (_, report, clock) = try await play("clip-5s-video-only.mp4")
        #expect(clock.now.offset == .seconds(5))
        #expect(report.clock == .seconds(5))
        #expect(report.framesPresented == 150)
    }

    @Test func play_audioOutlastsVideo_completesWhenTheAudioEnds() async throws {
        let (events, report, _) = try await play("clip-audio-outlasts-video.mp4")
        #expect(events.first { $0.name == .complete }?.playhead == .seconds(6))
        #expect(events.first { $0.name == .midpoint }?.playhead == .seconds(3))
        #expect(report.statistics.streams.first { $0.type == .video }?.frames == 100)
    }

    @Test func play_progressOffsetBetweenFrames_firesAtTheOffsetNotAtTheNextFrame() async throws {
        // 3.3 s lies between two 24 fps frames (3.291666… and 3.333…): a poller would fire at a frame or later.
        let (events, _, _) = try await play("clip-10s-360p.mp4", configuration: .init(progressOffsets: [.milliseconds(3300)]))
        let progress = try #require(events.first { $0.name == .progress })
        #expect(progress.playhead == .milliseconds(3300))
        #expect(progress.clock == .milliseconds(3300))
        #expect(progress.offset == .milliseconds(3300))
    }

    // MARK: - Rewarded sessions with scripts (issue 4's scenarios), on the virtual clock

    func session(_ clip: String = "clip-10s-360p.mp4", script: String, _ configure: (inout PlaybackRules) -> Void = { _ in }) async throws -> ([PlaybackEvent], PlaybackReport) {
        var rules = PlaybackRules()
        rules.reward = Reward(currency: "Coins", amount: 10)
        configure(&rules)
        let path = Repo.media(clip)
        let source = try FFmpegMediaSource(location: path)
        var events: [PlaybackEvent] = []
        let report = try await PlaybackEngine(configuration: .init(rules: rules)).play(
            source, script: try SessionScript(parsing: script), reopen: { () throws(MediaError) -> any MediaSource in try FFmpegMediaSource(location: path) }, on: VirtualClock()
        ) { events.append($0) }
        return (events, report)
    }

    func first(_ name: PlaybackEvent.Name, in events: [PlaybackEvent]) throws -> PlaybackEvent {
        try #require(events.first { $0.name == name }, "\(name) missing")
    }

    /// A replay whose media cannot be opened again fails the ad with that error, and the report counts the first
    /// play's frames once (they were counted twice: added to the earlier plays' before the reopen that failed).
    @Test func aReplayWhoseReopenFails_countsTheFirstPlayOnce() async throws {
        let path = Repo.media("clip-5s-video-only.mp4")
        // No companion: the replay screen follows the video.
        var rules = PlaybackRules()
        rules.hasEndCard = false
        let engine = PlaybackEngine(configuration: .init(rules: rules))
        let source = try FFmpegMediaSource(location: path), script = try SessionScript(parsing: "replay@6")
        do {
            _ = try await engine.play(source, script: script,
                                      reopen: { () throws(MediaError) -> any MediaSource in throw MediaError.readFailed(location: path, message: "gone") },
                                      on: VirtualClock()) { _ in }
            Issue.record("the replay played without its media")
        } catch {
            #expect(error.report.plays == 2 && error.report.events.contains(.error), "\(error.report.events)")
            #expect(error.report.statistics.frames == 150, "the first play's 150 frames, once: \(error.report.statistics.frames)")
        }
    }

    /// Under a measured network the startup delay is the time since the media request on the session's network clock
    /// (handed in, not read from the machine's), scaled by --speed: a stopwatch that says 1.5 s at speed 2 is 3 s.
    @Test func measuredStartupDelay_comesFromTheInjectedClock() async throws {
        let source = try FFmpegMediaSource(location: Repo.media("clip-5s-video-only.mp4"))
        let measured = PlaybackEngine.MeasuredNetwork(startupBuffer: .seconds(1), rebuffer: .seconds(1), stallTimeout: nil,
                                                      sinceRequested: { .milliseconds(1500) }, speed: 2)
        let report = try await PlaybackEngine(configuration: .init(measuredNetwork: measured)).play(source, on: VirtualClock()) { _ in }
        #expect(report.startupDelay == .seconds(3))
    }

    @Test func backgroundAt3ForegroundAt13_exactTimesOnBothTimelines() async throws {
        let (events, report) = try await session(script: "background@3,foreground@13")
        let q1 = try first(.firstQuartile, in: events)
        #expect(q1.playhead == .milliseconds(2500) && q1.clock == .milliseconds(2500))
        let pause = try first(.pause, in: events)
        #expect(pause.playhead == .seconds(3) && pause.clock == .seconds(3))
        let resume = try first(.resume, in: events)
        #expect(resume.playhead == .seconds(3) && resume.clock == .seconds(13))
        let midpoint = try first(.midpoint, in: events)
        #expect(midpoint.playhead == .seconds(5) && midpoint.clock == .seconds(15))
        let complete = try first(.complete, in: events)
        #expect(complete.playhead == .seconds(10) && complete.clock == .seconds(20))
        let rewards = events.filter { $0.name == .rewarded }
        #expect(rewards.count == 1)
        #expect(rewards.first?.clock == .seconds(20) && rewards.first?.reward?.amount == 10)
        #expect(events.firstIndex { $0.name == .rewarded }! > events.firstIndex { $0.name == .complete }!)
        #expect(report.framesPresented == 240 + 431, "every frame shown once; none while in the background")
        #expect(report.rewardGranted && report.ending == .completed)
    }

    @Test func skipBeforeOffsetRejected_afterItSkipsAndNoLaterQuartileOrCompleteFires() async throws {
        let (events, report) = try await session(script: "skip@4,skip@6") { $0.skipOffset = .seconds(5) }
        let rejected = try first(.rejected, in: events)
        #expect(rejected.clock == .seconds(4) && rejected.detail == .refused(step: "skip", .notSkippableYet(offset: .seconds(5), playhead: .seconds(4))))
        #expect(try first(.skippable, in: events).playhead == .seconds(5))
        let skip = try first(.skip, in: events)
        #expect(skip.playhead == .seconds(6) && skip.clock == .seconds(6))
        let after = events.drop { $0.name != .skip }
        #expect(!after.contains { [.thirdQuartile, .complete, .rewarded].contains($0.name) })
        #expect(after.contains { $0.name == .rewardForfeited })
        #expect(report.ending == .skipped && !report.rewardGranted)
        #expect(report.framesPresented < 240 + 431)
    }

    @Test func closeBeforeComplete_givesNoReward() async throws {
        let (events, report) = try await session(script: "close@4")
        #expect(events.map(\.name).suffix(3) == [.closeLinear, .rewardForfeited, .close])
        #expect(!events.contains { $0.name == .rewarded })
        #expect(report.ending == .closedEarly && !report.rewardGranted && report.clock == .seconds(4))
    }

    @Test func controlCenter_pausesAndResumes() async throws {
        let (events, _) = try await session(script: "willResignActive@2,didBecomeActive@4")
        #expect(try first(.pause, in: events).detail == .suppression(.inactive))
        #expect(try first(.resume, in: events).clock == .seconds(4))
        #expect(try first(.complete, in: events).clock == .seconds(12))
    }

    @Test func clickThrough_suppressesUntilClosed_thenEndCardAndReplay() async throws {
        let (events, report) = try await session(script: "click@2,clickthroughClose@5,replay@+10") { $0.hasEndCard = false }
        #expect(try first(.click, in: events).detail == .clickThrough(opened: true))
        #expect(try first(.resume, in: events).clock == .seconds(5))
        #expect(try first(.complete, in: events).clock == .seconds(13))
        let rewind = try first(.rewind, in: events)
        #expect(rewind.clock == .seconds(15) && rewind.play == 2)
        let completes = events.filter { $0.name == .complete }
        #expect(completes.map(\.clock) == [.seconds(13), .seconds(25)])
        #expect(events.filter { $0.name == .rewarded }.count == 1, "the reward is granted once per session")
        #expect(report.plays == 2)
    }

    @Test func play_twice_isDeterministic() async throws {
        let first = try await play("clip-10s-360p.mp4", configuration: .init(progressOffsets: [.seconds(1)]))
        let second = try await play("clip-10s-360p.mp4", configuration: .init(progressOffsets: [.seconds(1)]))
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
    }

    @Test func play_truncatedFile_deliversEventsUpToTheCutThenFailsWhereItStopped() async throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let path = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let source = try FFmpegMediaSource(location: path)
        var events: [PlaybackEvent] = []
        var caught: PlaybackFailure?
        do {
            _ = try await PlaybackEngine().play(source, on: VirtualClock()) { events.append($0) }
        } catch {
            caught = error
        }
        let failure = try #require(caught)
        guard case .truncated = failure.error else { Issue.record("expected truncated, got \(failure.error)"); return }
        let names = events.map(\.name)
        #expect(names.contains(.firstQuartile))
        #expect(!names.contains(.complete))
        #expect(names.suffix(2) == [.error, .close])
        let error = try #require(events.first { $0.name == .error })
        // Where playback really stopped: the end of the last frame the data holds (a little after 5 s), not the
        // first quartile's 2.500 s nor the frame being read ahead.
        #expect(error.playhead == failure.playhead && error.clock == failure.clock)
        let dataEnd = failure.report.statistics.end
        #expect(dataEnd.map { abs(failure.playhead.seconds - $0) < 0.001 } == true, "\(failure.playhead) vs \(String(describing: dataEnd))")
        #expect(failure.playhead > .milliseconds(4800) && failure.playhead < .milliseconds(5100))
        #expect(failure.report.framesPresented > 0 && failure.report.statistics.frames >= failure.report.framesPresented)
        #expect(failure.report.ending == .failed)
    }
}

import Foundation
import TestSupport

/// The engine's paths beyond a plain play: steps after the close, replays' statistics, and real-time lateness on a
/// clock that runs late exactly where a test says (no wall-clock waits).
@Suite struct PlaybackEnginePathTests {
    func session(script: String, clock: some Clock<Duration> = VirtualClock(), _ configure: (inout PlaybackRules) -> Void = { _ in }) async throws -> ([PlaybackEvent], PlaybackReport) {
        var rules = PlaybackRules()
        rules.reward = Reward(currency: "Coins", amount: 10)
        configure(&rules)
        let path = Repo.media("clip-10s-360p.mp4")
        var events: [PlaybackEvent] = []
        let report = try await PlaybackEngine(configuration: .init(rules: rules)).play(
            try FFmpegMediaSource(location: path), script: script.isEmpty ? SessionScript() : try SessionScript(parsing: script),
            reopen: { () throws(MediaError) -> any MediaSource in try FFmpegMediaSource(location: path) }, on: clock
        ) { events.append($0) }
        return (events, report)
    }

    @Test func scriptStepsAfterTheClose_areReportedAsRejected_notDropped() async throws {
        let (events, _) = try await session(script: "close@4,mute@5,click@6")
        let rejected = events.filter { $0.name == .rejected }
        #expect(rejected.map(\.detail) == [.refused(step: "mute@5", .adAlreadyClosed), .refused(step: "click@6", .adAlreadyClosed)])
        #expect(rejected.allSatisfy { $0.clock == .seconds(4) })
    }

    @Test func replay_decodesAgain_andEveryDecodedFrameIsCounted() async throws {
        let (_, report) = try await session(script: "replay@11") { $0.hasEndCard = false }
        #expect(report.plays == 2)
        #expect(report.framesPresented == 2 * (240 + 431))
        #expect(report.statistics.frames == report.framesPresented, "decode statistics add up over both plays")
        #expect(report.framesNotShown == 0)
        #expect(report.videoFramesPresented == 2 * 240)
    }

    @Test func skip_leavesOnlyTheDecodersReadAheadNotShown() async throws {
        let (_, report) = try await session(script: "skip@6") { $0.skipOffset = .seconds(5) }
        // Skipped at 6 s of a 10 s clip: frames up to 6 s were shown, the decoder had read a little ahead.
        #expect(report.framesPresented < report.statistics.frames)
        #expect((1..<10).contains(report.framesNotShown), "a few frames decoded ahead, not a lost video: \(report.framesNotShown)")
    }

    @Test func aClockThatRunsHalfASecondLate_isAStall_heldOutOfThePlayhead() async throws {
        let clock = LateClock(lateAt: .seconds(3), by: .milliseconds(500))
        let (events, report) = try await session(script: "", clock: clock)
        #expect(report.stalls == 1 && report.framesLate == 1)
        #expect(report.stallTime == .milliseconds(500) && report.maxFrameLateness == .milliseconds(500))
        let midpoint = try #require(events.first { $0.name == .midpoint })
        #expect(midpoint.playhead == .seconds(5) && midpoint.clock == .milliseconds(5500), "the frozen half second is not played time")
        #expect(events.first { $0.name == .complete }?.clock == .milliseconds(10_500))
        #expect(report.maxBoundaryLateness == .zero, "boundaries after the stall are on time again")
    }
}

/// A virtual clock that, once, wakes a sleeper `by` late: the first sleep whose deadline is at or after `lateAt`.
/// A decoder that falls behind real time, without waiting for real time.
final class LateClock: Clock, Sendable {
    typealias Instant = VirtualClock.Instant
    private let state: Locked<(now: Duration, done: Bool)>
    private let lateAt: Duration, lateness: Duration

    init(lateAt: Duration, by lateness: Duration) {
        self.lateAt = lateAt
        self.lateness = lateness
        state = Locked((.zero, false))
    }

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { state in
            state.now = max(state.now, deadline.offset)
            if !state.done, deadline.offset >= lateAt {
                state.done = true
                state.now += lateness
            }
        }
    }
}

/// Decode once, play many: a timeline replays exactly what the decode gave, and a session on it is the session on
/// the decode.
@Suite struct MediaTimelineTests {
    @Test func timeline_holdsEveryFrameOfTheDecode_andReplaysThemWithTheSameStatistics() throws {
        let decoded = try FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4"))
        var frames: [MediaFrame] = []
        while let frame = try decoded.nextFrame() { frames.append(frame) }
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")))
        #expect(timeline.frames == frames)
        let replay = TimelineMediaSource(timeline)
        var replayed: [MediaFrame] = []
        while let frame = try replay.nextFrame() { replayed.append(frame) }
        #expect(replayed == frames)
        #expect(replay.statistics.streams.map(\.frames) == decoded.statistics.streams.map(\.frames))
        #expect(replay.statistics.streams.map(\.end) == decoded.statistics.streams.map(\.end))
    }

    /// A replay stopped partway (a skip, a close) counts the frames it replayed: per stream, how many, the first and
    /// last time and the end. Its statistics are looked up from ones worked out once per timeline; here they are
    /// counted afresh from the frames replayed, at every frame.
    @Test func replayStoppedAtAnyFrame_countsTheFramesItReplayed() throws {
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")))
        let replay = TimelineMediaSource(timeline)
        func counted(_ statistics: DecodeStatistics) -> [String] {
            statistics.streams.map { (stream: DecodeStatistics.Stream) -> String in
                let times: [Double?] = [stream.firstTime, stream.lastTime, stream.end]
                return "\(stream.index) \(stream.type) \(stream.frames) \(times)"
            }
        }
        func countedAfresh(_ frames: [MediaFrame]) -> [String] {
            timeline.statistics.streams.map { (stream: DecodeStatistics.Stream) -> String in
                let own = frames.filter { $0.stream == stream.index }
                let times: [Double?] = [own.map(\.time.seconds).min(), own.map(\.time.seconds).max(), own.map(\.end.seconds).max()]
                return "\(stream.index) \(stream.type) \(own.count) \(times)"
            }
        }
        var replayed: [MediaFrame] = []
        #expect(counted(replay.statistics) == countedAfresh(replayed))
        while let frame = try replay.nextFrame() {
            replayed.append(frame)
            #expect(counted(replay.statistics) == countedAfresh(replayed), "after \(replayed.count) frames")
        }
        #expect(replayed.count == 671 && replay.statistics.frames == 671)
        #expect(counted(replay.statistics).map { $0.split(separator: " ").prefix(3) } == counted(timeline.statistics).map { $0.split(separator: " ").prefix(3) })
    }

    @Test(arguments: ["background@3,foreground@9,click@12,clickthroughClose@14", "", "pause@0.001,resume@0.002", "pause@2.5,resume@7.25",
                      "mute@1,skip@4.9", "close@9.999", "background@9.99,foreground@10.5", "click@5,clickthroughClose@5.5,pause@6,resume@30"])
    func sessionOnTheTimeline_isTheSessionOnTheDecode(_ text: String) async throws {
        let script = text.isEmpty ? SessionScript() : try SessionScript(parsing: text)
        var rules = PlaybackRules()
        rules.skipOffset = .seconds(4)
        rules.progressOffsets = [.milliseconds(3_333)]
        var onDecode: [PlaybackEvent] = [], onTimeline: [PlaybackEvent] = []
        let decodeReport = try await PlaybackEngine(configuration: .init(rules: rules)).play(
            FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")), script: script, on: VirtualClock()) { onDecode.append($0) }
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")))
        let timelineReport = try await PlaybackEngine(configuration: .init(rules: rules)).play(
            TimelineMediaSource(timeline), script: script, on: VirtualClock()) { onTimeline.append($0) }
        // The replay's frames are read in the engine's own loop over the timeline (no protocol call each); the
        // decode goes through the general one. Same events, same counts, same end.
        #expect(onTimeline == onDecode)
        #expect(timelineReport.framesPresented == decodeReport.framesPresented)
        #expect(timelineReport.videoFramesPresented == decodeReport.videoFramesPresented)
        #expect(timelineReport.clock == decodeReport.clock && timelineReport.plays == decodeReport.plays && timelineReport.ending == decodeReport.ending)
    }

    @Test func truncatedMedia_failsToBecomeATimeline() throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let path = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let source = try FFmpegMediaSource(location: path)
        do {
            _ = try MediaTimeline(decoding: source)
            Issue.record("the cut file became a timeline")
        } catch {
            guard case .truncated = error else { Issue.record("got \(error)"); return }
        }
    }
}
