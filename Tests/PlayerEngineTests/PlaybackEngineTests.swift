import Testing
@testable import PlayerEngine

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
        let (events, report, _) = try await play("clip-10s-360p.mp4")
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

    @Test func play_twice_isDeterministic() async throws {
        let first = try await play("clip-10s-360p.mp4", configuration: .init(progressOffsets: [.seconds(1)]))
        let second = try await play("clip-10s-360p.mp4", configuration: .init(progressOffsets: [.seconds(1)]))
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
    }

    @Test func play_truncatedFile_deliversEventsUpToTheCutThenThrowsTruncated() async throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        let path = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let source = try FFmpegMediaSource(location: path)
        var names: [PlaybackEvent.Name] = []
        await #expect(throws: MediaError.self) {
            _ = try await PlaybackEngine().play(source, on: VirtualClock()) { names.append($0.name) }
        }
        #expect(names.contains(.firstQuartile))
        #expect(!names.contains(.complete))
    }
}

import Foundation
import TestSupport
