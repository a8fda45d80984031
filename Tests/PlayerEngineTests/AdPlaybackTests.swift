import Primitives
import Testing
@testable import PlayerEngine

/// A 10 s rewarded ad's state machine, begun at zero, and shorthand for times and event names.
protocol MachineFixture {}

extension MachineFixture {
    static var coins: Reward { Reward(currency: "Coins", amount: 10) }

    func machine(_ configure: (inout PlaybackRules) -> Void = { _ in }) -> AdPlayback {
        var rules = PlaybackRules(duration: .seconds(10))
        rules.reward = Self.coins
        configure(&rules)
        var machine = AdPlayback(rules: rules, duration: .seconds(10))
        _ = machine.begin(at: .zero)
        return machine
    }

    func s(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }
    func names(_ events: [PlaybackEvent]) -> [PlaybackEvent.Name] { events.map(\.name) }
}

/// The rewarded session's pure state machine, with plain timestamps (no clock, no media).
@Suite struct AdPlaybackTests: MachineFixture {
    /// Runs to `clock`, applying `inputs` at their times, and returns every event.
    func run(_ machine: inout AdPlayback, _ inputs: [(Double, SessionInput)], until end: Double) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        for (time, input) in inputs { events += machine.handle(input, at: s(time)) }
        events += machine.advance(to: s(end))
        return events
    }

    @Test func begin_firesLoadedImpressionCreativeViewStartAtZero() {
        var machine = AdPlayback(rules: PlaybackRules(duration: .seconds(10)), duration: .seconds(10))
        let events = machine.begin(at: .zero)
        #expect(names(events) == [.loaded, .impression, .creativeView, .start])
        #expect(events.allSatisfy { $0.playhead == .zero && $0.clock == .zero })
        #expect(machine.phase == .playing)
        #expect(machine.nextDeadline() == s(2.5))
    }

    @Test func quartilesAndComplete_fireAtExactPlayheads_thenRewardThenReplayScreen() {
        var m = machine()
        let events = m.advance(to: s(10))
        #expect(names(events) == [.firstQuartile, .midpoint, .thirdQuartile, .complete, .rewarded, .replayShown, .closeShown])
        #expect(events.map(\.playhead).prefix(4) == [s(2.5), s(5), s(7.5), s(10)])
        #expect(events.first { $0.name == .rewarded }?.reward == Self.coins)
        #expect(m.rewardGranted && m.ending == .completed && m.phase == .replayScreen)
    }

    @Test func backgroundAt3_foregroundAt13_pausesAndResumesWithoutCountingBackgroundTime() {
        var m = machine()
        let events = run(&m, [
            (3, .lifecycle(.willResignActive)), (3, .lifecycle(.didEnterBackground)),
            (13, .lifecycle(.willEnterForeground)), (13, .lifecycle(.didBecomeActive)),
        ], until: 20)
        let pause = events.first { $0.name == .pause }!
        #expect(pause.playhead == s(3) && pause.clock == s(3) && pause.detail == .suppression(.inactive))
        let resume = events.first { $0.name == .resume }!
        #expect(resume.playhead == s(3) && resume.clock == s(13))
        let midpoint = events.first { $0.name == .midpoint }!
        #expect(midpoint.playhead == s(5) && midpoint.clock == s(15))
        let complete = events.first { $0.name == .complete }!
        #expect(complete.playhead == s(10) && complete.clock == s(20))
        #expect(events.filter { $0.name == .rewarded }.count == 1)
        #expect(events.filter { $0.name == .pause }.count == 1, "one pause for the whole background span")
    }

    @Test func willEnterForeground_aloneDoesNotResume_onlyDidBecomeActiveDoes() {
        var m = machine()
        var events = run(&m, [(1, .lifecycle(.willResignActive)), (1, .lifecycle(.didEnterBackground)), (4, .lifecycle(.willEnterForeground))], until: 6)
        #expect(m.phase == .suppressed)
        #expect(!names(events).contains(.resume))
        events = m.handle(.lifecycle(.didBecomeActive), at: s(6))
        #expect(names(events).contains(.resume))
        #expect(m.playhead(at: s(7)) == s(2))
    }

    @Test func controlCenter_resignAndBecomeActiveWithoutBackground_pausesAndResumes() {
        var m = machine()
        let events = run(&m, [(2, .lifecycle(.willResignActive)), (5, .lifecycle(.didBecomeActive))], until: 6)
        #expect(names(events).filter { $0 == .pause || $0 == .resume } == [.pause, .resume])
        #expect(m.playhead(at: s(6)) == s(3))
    }

    @Test func suppressionReasons_resumeOnlyWhenNoneIsLeft() {
        var m = machine()
        var events = m.handle(.action(.pause), at: s(1))
        events += m.handle(.lifecycle(.willResignActive), at: s(2))
        events += m.handle(.lifecycle(.didBecomeActive), at: s(3))
        #expect(m.phase == .suppressed, "still paused by the user")
        events += m.handle(.action(.resume), at: s(4))
        #expect(m.phase == .playing)
        #expect(names(events).filter { $0 == .pause || $0 == .resume } == [.pause, .resume])
        #expect(m.playhead(at: s(4)) == s(1))
    }

    @Test func skipBeforeOffset_isRejected_afterIt_skipsAndNothingLaterFires() {
        var m = machine { $0.skipOffset = .seconds(5) }
        let early = m.handle(.action(.skip), at: s(4))
        #expect(names(early) == [.firstQuartile, .rejected], "the quartile due before the tap fires first")
        #expect(early.last?.detail == .refused(step: "skip", .notSkippableYet(offset: s(5), playhead: s(4))))
        let events = m.handle(.action(.skip), at: s(6))
        #expect(names(events) == [.midpoint, .skippable, .skip, .rewardForfeited, .replayShown, .closeShown])
        #expect(events.first { $0.name == .skip }?.playhead == s(6))
        let later = m.advance(to: s(60))
        #expect(!names(later).contains(.thirdQuartile) && !names(later).contains(.complete) && !names(later).contains(.rewarded))
        #expect(m.ending == .skipped && !m.rewardGranted)
    }

    @Test func skippable_firesAtTheSkipOffsetExactly() {
        var m = machine { $0.skipOffset = .milliseconds(5300) }
        let events = m.advance(to: s(6))
        #expect(events.first { $0.name == .skippable }?.playhead == s(5.3))
    }

    @Test func skip_onUnskippableAd_isRejected() {
        var m = machine()
        #expect(m.handle(.action(.skip), at: s(8)).last?.detail == .refused(step: "skip", .notSkippable))
    }

    @Test func closeBeforeComplete_forfeitsTheReward() {
        var m = machine()
        let events = m.handle(.action(.close), at: s(4))
        #expect(names(events) == [.firstQuartile, .closeLinear, .rewardForfeited, .close])
        #expect(m.phase == .closed && !m.rewardGranted && m.ending == .closedEarly)
        #expect(m.advance(to: s(30)).isEmpty)
    }

    @Test func videoClose_never_and_after_areEnforced() {
        var never = machine { $0.videoClose = .never }
        #expect(names(never.handle(.action(.close), at: s(4))).contains(.rejected))
        var after = machine { $0.videoClose = .after(.seconds(5)) }
        #expect(names(after.handle(.action(.close), at: s(4))).last == .rejected)
        #expect(names(after.handle(.action(.close), at: s(5))).contains(.close))
    }

    @Test func rewardAtPercent_isGrantedOnceAtThatPlayhead_evenIfClosedLater() {
        var m = machine { $0.rewardThreshold = .percent(50) }
        var events = m.advance(to: s(6))
        #expect(events.first { $0.name == .rewarded }?.playhead == s(5))
        events = m.handle(.action(.close), at: s(7))
        #expect(!names(events).contains(.rewardForfeited))
        #expect(m.rewardGranted)
    }

    @Test func rewardAfterSecondsPlayed_excludesPausedTime() {
        var m = machine { $0.rewardThreshold = .played(.seconds(4)) }
        var events = m.handle(.action(.pause), at: s(1))
        events += m.handle(.action(.resume), at: s(9))
        events += m.advance(to: s(20))
        #expect(events.first { $0.name == .rewarded }?.clock == s(12))
        #expect(events.filter { $0.name == .rewarded }.count == 1)
    }

    @Test func notARewardedAd_hasNoRewardEvents() {
        var m = machine { $0.reward = nil }
        let events = m.handle(.action(.close), at: s(3)) + m.advance(to: s(20))
        #expect(!names(events).contains(.rewarded) && !names(events).contains(.rewardForfeited))
    }

    @Test func click_opensClickThroughAndSuppressesUntilItCloses() {
        var m = machine()
        var events = m.handle(.action(.click), at: s(2))
        #expect(names(events) == [.click, .pause])
        #expect(events.first?.detail == .clickThrough(opened: true))
        events = m.handle(.action(.clickthroughClose), at: s(7))
        #expect(names(events) == [.clickThroughClose, .resume])
        #expect(m.playhead(at: s(8)) == s(3))
    }

    @Test func click_withoutClickThrough_tracksButDoesNotSuppress() {
        var m = machine { $0.hasClickThrough = false }
        #expect(names(m.handle(.action(.click), at: s(2))) == [.click])
        #expect(m.phase == .playing)
    }

    @Test func vetoes_refuseCloseAndClickThrough() {
        var m = machine {
            $0.willClose = { _ in false }
            $0.willBeginClickThrough = { _ in false }
        }
        #expect(m.handle(.action(.close), at: s(1)).first?.detail == .refused(step: "close", .vetoedByWillClose))
        #expect(m.handle(.action(.click), at: s(1)).first?.detail == .refused(step: "click", .vetoedByWillBeginClickThrough))
        #expect(m.phase == .playing)
    }

    @Test func actionsWhileInBackground_areRejected() {
        var m = machine { $0.skipOffset = .seconds(1) }
        _ = m.handle(.lifecycle(.willResignActive), at: s(2))
        #expect(m.handle(.action(.skip), at: s(3)).first?.detail == .refused(step: "skip", .appNotActive))
    }

    @Test func muteTwice_isRejectedTheSecondTime() {
        var m = machine()
        #expect(names(m.handle(.action(.mute), at: s(1))) == [.mute])
        #expect(m.handle(.action(.mute), at: s(2)).first?.detail == .refused(step: "mute", .alreadyMuted))
        #expect(names(m.handle(.action(.unmute), at: s(3))) == [.firstQuartile, .unmute])
    }

    @Test func endCard_showsAfterComplete_closeWaitsForTheDelay_closeFiresCloseLinear() {
        var m = machine {
            $0.hasEndCard = true
            $0.closeDelay = .seconds(3)
        }
        var events = m.advance(to: s(10))
        #expect(names(events).suffix(2) == [.rewarded, .endCardShown])
        #expect(m.nextDeadline() == s(13))
        events = m.handle(.action(.close), at: s(11))
        #expect(events.first?.detail == .refused(step: "close", .closeDelayRunning(left: s(2))))
        events = m.handle(.action(.endcardClick), at: s(12))
        #expect(names(events) == [.endCardClick])
        events = m.handle(.action(.close), at: s(14))
        #expect(names(events) == [.closeShown, .closeLinear, .close])
        #expect(events.first?.clock == s(13), "the close control appeared at exactly 10 + 3 s")
        #expect(events[1].detail == .closed(.endCard))
    }

    @Test func endCardAfterSkip_isASetting() {
        var shown = machine { $0.skipOffset = .seconds(1); $0.hasEndCard = true }
        #expect(names(shown.handle(.action(.skip), at: s(2))).contains(.endCardShown))
        var closed = machine { $0.skipOffset = .seconds(1); $0.hasEndCard = true; $0.endCardAfterSkip = false }
        let events = closed.handle(.action(.skip), at: s(2))
        #expect(!names(events).contains(.endCardShown) && names(events).contains(.close))
    }

    @Test func replay_startsPlayTwoFromZero_rewardStaysGrantedOnce() {
        var m = machine()
        _ = m.advance(to: s(10))
        var events = m.handle(.action(.replay), at: s(12))
        #expect(names(events) == [.rewind, .impression, .creativeView, .start], "a new play shows its first frame again")
        #expect(events.first?.play == 2)
        events = m.advance(to: s(22))
        #expect(names(events).filter { $0 != .closeShown } == [.firstQuartile, .midpoint, .thirdQuartile, .complete, .replayShown])
        #expect(events.allSatisfy { $0.play == 2 })
        #expect(events.first { $0.name == .complete }?.clock == s(22))
    }

    @Test func replay_onEndCard_isRejected() {
        var m = machine { $0.hasEndCard = true }
        _ = m.advance(to: s(10))
        #expect(m.handle(.action(.replay), at: s(11)).first?.detail == .refused(step: "replay", .noReplayScreen))
    }

    @Test func finish_closesAWaitingScreenWhenItsControlShows_orAbandonsASuppressedVideo() {
        var screen = machine { $0.hasEndCard = true; $0.closeDelay = .seconds(2) }
        _ = screen.advance(to: s(10))
        let closing = screen.finish(at: s(10))
        #expect(names(closing) == [.closeShown, .closeLinear, .close])
        #expect(closing.last?.clock == s(12))
        var background = machine()
        _ = background.handle(.lifecycle(.didEnterBackground), at: s(4))
        let abandoned = background.finish(at: s(4))
        #expect(names(abandoned) == [.abandoned, .rewardForfeited])
        #expect(abandoned.first?.detail == .abandoned(.suppressed([.inactive, .background])), "a background app is inactive too")
        #expect(background.ending == .abandoned, "it was nil, which a summary showed as completed")
        #expect(screen.ending == .completed)
    }

    @Test func oneShotEvents_fireOncePerPlayEvenAcrossPauses() {
        var m = machine()
        var events: [PlaybackEvent] = []
        for t in stride(from: 0.5, to: 9.0, by: 1.0) {
            events += m.handle(.action(.pause), at: s(t))
            events += m.handle(.action(.resume), at: s(t + 0.25))
        }
        events += m.advance(to: s(40))
        for name in [PlaybackEvent.Name.firstQuartile, .midpoint, .thirdQuartile, .complete, .rewarded] {
            #expect(events.filter { $0.name == name }.count == 1, "\(name)")
        }
    }

    @Test func stall_holdsThePlayhead() {
        var m = machine()
        m.stall(.milliseconds(500), at: s(1))
        #expect(m.playhead(at: s(3)) == s(2.5))
    }
}

/// The `--script` grammar.
@Suite struct SessionScriptTests {
    @Test func parse_absoluteRelativeAndShorthands() throws {
        let script = try SessionScript(parsing: "mute@1,background@3,foreground@13,click@15,skip@6,close@+2")
        #expect(script.steps.map(\.text) == ["mute@1", "background@3", "skip@6", "close@+2", "foreground@13", "click@15"])
        #expect(script.steps.map(\.at) == [.seconds(1), .seconds(3), .seconds(6), .seconds(8), .seconds(13), .seconds(15)])
        #expect(script.steps[1].inputs == [.lifecycle(.willResignActive), .lifecycle(.didEnterBackground)])
    }

    @Test func parse_androidAliases() throws {
        let script = try SessionScript(parsing: "onPause@1,onStop@1,onStart@2,onResume@2")
        #expect(script.steps.flatMap(\.inputs) == [.lifecycle(.willResignActive), .lifecycle(.didEnterBackground), .lifecycle(.willEnterForeground), .lifecycle(.didBecomeActive)])
    }

    @Test(arguments: ["jump@3", "mute", "mute@x", "mute@-1", "mute@1e9"])
    func parse_badStep_throwsNamingIt(_ text: String) {
        #expect(throws: SessionScript.ParseError.self) { try SessionScript(parsing: text) }
    }

    @Test func json_sameAsTheInlineForm() throws {
        let json = #"[{"at": 1, "action": "mute"}, {"at": "+2.5", "action": "pause"}, {"at": 10, "action": "resume"}]"#
        let script = try SessionScript(json: Data(json.utf8))
        #expect(script == (try SessionScript(parsing: "mute@1,pause@+2.5,resume@10")).withTexts(script))
        #expect(script.steps.map(\.at) == [.seconds(1), .milliseconds(3500), .seconds(10)])
    }
}

extension SessionScript {
    /// This script with `other`'s step texts (the JSON form writes them differently).
    func withTexts(_ other: SessionScript) -> SessionScript {
        SessionScript(steps: zip(steps, other.steps).map { var step = $0; step.text = $1.text; return step })
    }
}

import Foundation

/// The rules the first audit found broken: a forfeited reward stays forfeited, failures, the end card while the app
/// is away, the end card's click-through, vetoes on every close path, and the skip offset at the very end.
@Suite struct AdPlaybackRuleTests: MachineFixture {
    @Test func skipThenReplayToTheEnd_neverRewards_andForfeitsOnce() {
        var m = machine { $0.skipOffset = .seconds(5) }
        var events = m.handle(.action(.skip), at: s(6))
        #expect(names(events).contains(.rewardForfeited) && names(events).contains(.replayShown))
        events += m.handle(.action(.replay), at: s(7))
        events += m.advance(to: s(17))
        events += m.handle(.action(.close), at: s(18))
        #expect(!names(events).contains(.rewarded), "the user was told no reward; a replay does not earn it back")
        #expect(names(events).filter { $0 == .rewardForfeited }.count == 1)
        #expect(m.rewardForfeited && !m.rewardGranted)
    }

    @Test func closeEarlyThenNothing_forfeitsOnceEvenWhenAbandonedLater() {
        var m = machine()
        let events = m.handle(.action(.close), at: s(4)) + m.finish(at: s(4))
        #expect(names(events).filter { $0 == .rewardForfeited }.count == 1)
    }

    static let truncated = MediaError.truncated(location: "clip.mp4", detail: "data ends at 7.000 s of 10.000 s")

    @Test func fail_midVideo_endsWithErrorForfeitAndClose_atThePlayheadReached() {
        var m = machine()
        _ = m.handle(.lifecycle(.willResignActive), at: s(2))
        _ = m.handle(.lifecycle(.didBecomeActive), at: s(3))
        let events = m.fail(Self.truncated, at: s(7.25))
        #expect(names(events) == [.error, .rewardForfeited, .close])
        #expect(events.first?.playhead == s(6.25) && events.first?.clock == s(7.25))
        #expect(events.first?.detail == .mediaError(Self.truncated))
        #expect(m.phase == .closed && m.ending == .failed)
        #expect(m.fail(Self.truncated, at: s(8)).isEmpty, "a closed session fails once")
    }

    @Test func skipOffsetEqualToTheDuration_neverShowsTheSkipControl() {
        var early = machine { $0.skipOffset = .seconds(10) }
        #expect(early.handle(.action(.skip), at: s(9)).last?.detail == .refused(step: "skip", .notSkippable))
        var m = machine { $0.skipOffset = .seconds(10) }
        let events = m.advance(to: s(10))
        #expect(!names(events).contains(.skippable), "a skip control after the video would skip nothing")
    }

    @Test func didEnterBackgroundWithoutResign_resumesOnlyOnDidBecomeActive() {
        var m = machine()
        var events = m.handle(.lifecycle(.didEnterBackground), at: s(3))
        events += m.handle(.lifecycle(.willEnterForeground), at: s(4))
        #expect(!names(events).contains(.resume), "an Android onStop/onStart without onResume does not play")
        events += m.handle(.lifecycle(.didBecomeActive), at: s(5))
        #expect(names(events).filter { $0 == .pause || $0 == .resume } == [.pause, .resume])
        #expect(m.playhead(at: s(6)) == s(4))
    }

    @Test func threeStackedReasons_resumeOnlyWhenTheLastIsGone() {
        var m = machine()
        var events = m.handle(.action(.pause), at: s(1))
        events += m.handle(.action(.resume), at: s(1))
        events += m.handle(.action(.click), at: s(2))
        events += m.handle(.lifecycle(.willResignActive), at: s(3))
        events += m.handle(.lifecycle(.didEnterBackground), at: s(3))
        events += m.handle(.lifecycle(.willEnterForeground), at: s(5))
        events += m.handle(.lifecycle(.didBecomeActive), at: s(5))
        #expect(m.phase == .suppressed, "the click-through is still open")
        events += m.handle(.action(.mute), at: s(5.5))
        #expect(events.last?.detail == .refused(step: "mute", .clickThroughOpen))
        events += m.handle(.action(.clickthroughClose), at: s(6))
        #expect(m.phase == .playing)
        #expect(m.playhead(at: s(7)) == s(3), "1 s before the pause, 1 s between resume and click, 1 s after")
    }

    @Test func endCardAtEndOfScript_withTheAppInTheBackground_isAbandonedWithoutCloseLinear() {
        var m = machine { $0.hasEndCard = true; $0.closeDelay = .seconds(5) }
        _ = m.advance(to: s(10))
        _ = m.handle(.lifecycle(.willResignActive), at: s(11))
        _ = m.handle(.lifecycle(.didEnterBackground), at: s(11))
        let events = m.finish(at: s(11))
        #expect(names(events) == [.abandoned])
        #expect(events.first?.detail == .abandoned(.appInBackground))
    }

    @Test func closeDelay_countdownWaitsWhileTheAppIsAway() {
        var m = machine { $0.hasEndCard = true; $0.closeDelay = .seconds(5) }
        _ = m.advance(to: s(10))
        #expect(m.nextDeadline() == s(15))
        _ = m.handle(.lifecycle(.willResignActive), at: s(12))
        #expect(m.nextDeadline() == nil, "no countdown while inactive")
        let events = m.handle(.lifecycle(.didBecomeActive), at: s(20))
        #expect(!names(events).contains(.closeShown))
        #expect(m.nextDeadline() == s(23), "2 s ran before, 3 s left after")
        #expect(names(m.advance(to: s(23))) == [.closeShown])
    }

    @Test func endCardClick_opensTheCompanionClickThrough_closeWaitsForIt() {
        var m = machine { $0.hasEndCard = true; $0.hasEndCardClickThrough = true }
        _ = m.advance(to: s(10))
        let click = m.handle(.action(.endcardClick), at: s(11))
        #expect(names(click) == [.endCardClick] && click.first?.detail == .clickThrough(opened: true))
        #expect(m.handle(.action(.close), at: s(12)).first?.detail == .refused(step: "close", .clickThroughOpen))
        #expect(names(m.handle(.action(.clickthroughClose), at: s(13))) == [.clickThroughClose])
        #expect(names(m.handle(.action(.close), at: s(14))) == [.closeLinear, .close])
    }

    @Test func endCardClick_withoutAClickThrough_opensNothing() {
        var m = machine { $0.hasEndCard = true }
        _ = m.advance(to: s(10))
        #expect(m.handle(.action(.endcardClick), at: s(11)).first?.detail == .clickThrough(opened: false))
        #expect(names(m.handle(.action(.close), at: s(12))) == [.closeLinear, .close])
    }

    @Test func willBeginClickThrough_vetoesTheEndCardClick() {
        var m = machine { $0.hasEndCard = true; $0.hasEndCardClickThrough = true; $0.willBeginClickThrough = { _ in false } }
        _ = m.advance(to: s(10))
        #expect(m.handle(.action(.endcardClick), at: s(11)).first?.detail == .refused(step: "endcardClick", .vetoedByWillBeginClickThrough))
    }

    @Test func willClose_vetoesTheAutomaticCloseAndTheSkipThatWouldClose() {
        var screen = machine { $0.hasEndCard = true; $0.willClose = { _ in false } }
        _ = screen.advance(to: s(10))
        let events = screen.finish(at: s(10))
        #expect(names(events) == [.rejected, .abandoned])
        #expect(!names(events).contains(.closeLinear))
        var skipping = machine { $0.skipOffset = .seconds(1); $0.endCardAfterSkip = false; $0.willClose = { _ in false } }
        #expect(skipping.handle(.action(.skip), at: s(2)).last?.detail == .refused(step: "skip", .vetoedByWillClose))
        #expect(skipping.phase == .playing)
    }

    @Test func ignored_reportsAStepAfterTheClose() {
        var m = machine()
        _ = m.handle(.action(.close), at: s(4))
        let event = m.ignored("mute@5", at: s(4))
        #expect(event.name == .rejected && event.detail == .refused(step: "mute@5", .adAlreadyClosed) && event.clock == s(4))
    }
}
