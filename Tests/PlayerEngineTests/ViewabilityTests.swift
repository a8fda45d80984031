import Testing
import Primitives
import TestSupport
@_spi(LiveParts) @testable import PlayerEngine

/// Issue 18: the MRC rule for video — at least 50 % of the ad's pixels in view for 2 continuous seconds of played
/// video — on the virtual clock, with exact times: the demo clip (10 s) played by the real engine, decoded by FFmpeg.
@Suite struct ViewabilityTests {
    static let timeline = Result { try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4"))) }

    func s(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    /// The viewability events of a session: name, playhead, clock.
    func play(_ script: String = "", viewability: PlaybackRules.Viewability = .measured, skipOffset: Duration? = nil,
              hasEndCard: Bool = true) async throws -> [String] {
        let timeline = try Self.timeline.get()
        var rules = PlaybackRules(duration: timeline.info.exactDuration)
        rules.viewability = viewability
        rules.skipOffset = skipOffset
        rules.hasEndCard = hasEndCard
        var events: [String] = []
        let names: Set<PlaybackEvent.Name> = [.viewable, .notViewable, .viewUndetermined]
        _ = try await PlaybackEngine(configuration: .init(rules: rules)).play(
            TimelineMediaSource(timeline), script: script.isEmpty ? SessionScript() : try SessionScript(parsing: script),
            reopen: { TimelineMediaSource(timeline) }, on: VirtualClock()) { event in
            if names.contains(event.name) { events.append("\(event.name.rawValue) \(event.playhead.millisecondText) \(event.clock.millisecondText)") }
        }
        return events
    }

    @Test func aPlainRun_isViewableAtTwoSecondsOfPlay() async throws {
        #expect(try await play() == ["viewable 2.000 2.000"])
    }

    @Test func aBackgroundAt1_5_returningAt10_movesItToPlayhead3_5() async throws {
        #expect(try await play("background@1.5,foreground@10") == ["viewable 3.500 12.000"])
    }

    @Test func aViewportOf40Percent_isNotViewable_whenTheVideoEnds() async throws {
        #expect(try await play("viewport@0=40") == ["notViewable 10.000 10.000"])
        // Exactly half the pixels counts (MRC: at least 50 %).
        #expect(try await play("viewport@0=50") == ["viewable 2.000 2.000"])
    }

    @Test func aPauseAt1_9_restartsTheCount() async throws {
        #expect(try await play("pause@1.9,resume@3") == ["viewable 3.900 5.000"])
    }

    @Test func aViewportThatDropsAndComesBack_restartsTheCount() async throws {
        #expect(try await play("viewport@1=30,viewport@1.5=100") == ["viewable 3.500 3.500"])
    }

    @Test func anOpenClickThrough_takesTheAdOutOfView() async throws {
        #expect(try await play("click@1,clickthroughClose@4") == ["viewable 3.000 6.000"])
    }

    @Test func aReplay_doesNotFireItTwice_norLateAfterNotViewable() async throws {
        #expect(try await play("replay@11", hasEndCard: false) == ["viewable 2.000 2.000"])
        #expect(try await play("viewport@0=40,replay@11,viewport@11=100", hasEndCard: false) == ["notViewable 10.000 10.000"])
    }

    @Test func aSkipBeforeTwoSeconds_isNotViewable_atTheSkip() async throws {
        #expect(try await play("skip@1.5", skipOffset: s(1)) == ["notViewable 1.500 1.500"])
        #expect(try await play("skip@2", skipOffset: s(1)) == ["viewable 2.000 2.000"], "the boundary comes before the skip at the same instant")
    }

    @Test func undetermined_firesViewUndetermined_whenExecutionEnds() async throws {
        #expect(try await play(viewability: .undetermined) == ["viewUndetermined 10.000 10.000"])
        #expect(try await play("close@4", viewability: .undetermined) == ["viewUndetermined 4.000 4.000"])
        #expect(try await play(viewability: .off).isEmpty)
    }

    /// A stall for media holds the playhead: the run in view starts again when playback does.
    @Test func aStall_breaksTheRun() {
        var rules = PlaybackRules(duration: s(10))
        rules.viewability = .measured
        var machine = AdPlayback(rules: rules, duration: s(10))
        _ = machine.begin(at: .zero)
        _ = machine.startBuffering(at: s(1))
        _ = machine.finishBuffering(at: s(4))
        // Playhead 1 + 2 s, played from clock 4; not playhead 2 (clock 5), as it would be without the stall.
        let events = machine.advance(to: s(6)).filter { $0.name == .viewable }
        #expect(events.map(\.playhead) == [s(3)] && events.map(\.clock) == [s(6)])
    }

    @Test func viewportSteps_parse_andRefuseWhatIsNotAPercent() throws {
        let script = try SessionScript(parsing: "viewport@3=30,viewport@ad2+1=12.5")
        #expect(script.steps.map(\.inputs) == [[.viewport(30)], [.viewport(12.5)]])
        #expect(script.steps.map(\.ad) == [nil, 2])
        for bad in ["viewport@3", "viewport@3=101", "viewport@3=x", "viewport@3=-1"] {
            #expect(throws: SessionScript.ParseError.self, "\(bad)") { try SessionScript(parsing: bad) }
        }
    }
}
