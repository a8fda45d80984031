import Testing
@testable import AdSession
import PlayerEngine

/// `BreakState` is what one turn of a session hands the next: values in, values out, no media and no clock.
@Suite struct BreakStateTests {
    static func rules(_ duration: Duration, threshold: PlaybackRules.RewardThreshold = .complete) -> PlaybackRules {
        var rules = PlaybackRules(duration: duration)
        rules.reward = Reward(currency: "coins", amount: 5)
        rules.rewardThreshold = threshold
        return rules
    }

    static func report(clock: Duration, ending: AdPlayback.Ending?, handled: Int = 0) -> PlaybackReport {
        var report = PlaybackReport()
        report.clock = clock
        report.ending = ending
        report.stepsHandled = handled
        return report
    }

    static func step(_ at: Int, ad: Int? = nil, _ action: UserAction) -> SessionScript.Step {
        SessionScript.Step(at: .seconds(at), ad: ad, inputs: [.action(action)], text: "\(action.rawValue)@\(at)")
    }

    /// Two ads of 5 s and 10 s, a failed place between them.
    static func pod(threshold: PlaybackRules.RewardThreshold = .complete, script: [SessionScript.Step] = []) -> BreakState {
        BreakState(kind: .pod, turns: [(true, .seconds(5), rules(.seconds(5), threshold: threshold)), (false, nil, nil),
                                       (true, .seconds(10), rules(.seconds(10), threshold: threshold))],
                   script: SessionScript(steps: script))
    }

    @Test func aSingleAdKeepsItsRulesAndTheWholeScript() {
        let script = SessionScript(steps: [Self.step(2, .mute), Self.step(1, ad: 2, .skip)])
        var state = BreakState(kind: .single, turns: [(true, .seconds(5), Self.rules(.seconds(5), threshold: .percent(50)))], script: script)
        let rules = state.rules(Self.rules(.seconds(5), threshold: .percent(50)), turn: 0)
        #expect(!rules.handsOver && rules.rewardThreshold == .percent(50) && rules.reward != nil)
        #expect(state.script(place: 1, turn: 0).script == script)
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(5), ending: .completed), order: [0, 1], failed: false)
        #expect(state.leftovers.isEmpty)
    }

    @Test func eachAdOfAPodHandsOverButTheLastAndOnlyTheLastCompletesTheReward() {
        var state = Self.pod()
        #expect(state.podDuration == .seconds(15))
        #expect(state.adCount(turn: 0) == 1)
        let first = state.rules(Self.rules(.seconds(5)), turn: 0)
        #expect(first.handsOver && first.rewardThreshold == .later && first.reward != nil)
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(5), ending: .completed), order: [], failed: false)
        #expect(state.adCount(turn: 1) == 1, "a failed place counts no ad")
        #expect(state.adCount(turn: 2) == 2)
        let last = state.rules(Self.rules(.seconds(10)), turn: 2)
        #expect(!last.handsOver && last.rewardThreshold == .complete)
    }

    @Test func aPercentThresholdFallsInTheAdThatPlaysThatPartOfThePod() {
        var state = Self.pod(threshold: .percent(50))
        // 50 % of 15 s is 7.5 s: 2.5 s into the second ad.
        #expect(state.rules(Self.rules(.seconds(5)), turn: 0).rewardThreshold == .later)
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(5), ending: .completed), order: [], failed: false)
        #expect(state.rules(Self.rules(.seconds(10)), turn: 2).rewardThreshold == .played(.milliseconds(2500)))
    }

    @Test func thePlayersStateAndAGrantedRewardCarryToTheNextAd() {
        var state = Self.pod()
        state.start()
        state.observe(PlaybackEvent(name: .mute, playhead: .seconds(1), clock: .seconds(1)))
        state.observe(PlaybackEvent(name: .viewport, playhead: .seconds(2), clock: .seconds(2), detail: .viewport(40)))
        state.observe(PlaybackEvent(name: .rewarded, playhead: .seconds(3), clock: .seconds(3)))
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(5), ending: .completed), order: [], failed: false)
        let next = state.rules(Self.rules(.seconds(10)), turn: 2)
        #expect(next.startsMuted && next.initialViewport == 40 && next.reward == nil)
    }

    @Test func aSkippedAdCountsItsPlayheadAndACloseEndsThePod() {
        var state = Self.pod()
        state.start()
        state.observe(PlaybackEvent(name: .skip, playhead: .seconds(2), clock: .seconds(2)))
        let (skipped, played) = state.finish(turn: 0, report: Self.report(clock: .seconds(2), ending: .skipped), order: [], failed: false)
        #expect(skipped == .skipped && played == .seconds(2) && state.offset == .seconds(2) && !state.skips)
        let (closed, _) = state.finish(turn: 2, report: Self.report(clock: .seconds(1), ending: .closedEarly), order: [], failed: false)
        #expect(closed == .closed && state.skips && state.offset == .seconds(3))
    }

    @Test func sessionTimeStepsGoToTheAdOnScreenAndUntakenStepsAreReported() {
        var state = Self.pod(script: [Self.step(7, .mute), Self.step(1, ad: 2, .click), Self.step(1, ad: 4, .skip)])
        let first = state.script(place: 1, turn: 0)
        #expect(first.script.steps.map(\.at) == [.seconds(7)])
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(5), ending: .completed, handled: 0), order: first.order, failed: false)
        // Place 2 failed: its own step waits, and is reported as not played at the end.
        let last = state.script(place: 3, turn: 2)
        #expect(last.script.steps.map(\.at) == [.seconds(2)], "the 7 s step is 2 s into the ad that starts at 5 s")
        _ = state.finish(turn: 2, report: Self.report(clock: .seconds(10), ending: .completed, handled: 1), order: last.order, failed: false)
        let refused = state.leftovers.map(\.detail)
        #expect(refused == [.refused(step: "click@1", .adNotPlayed(2)), .refused(step: "skip@1", .adNotPlayed(4))])
    }

    @Test func theLastAdsFailureEndsTheBreak() {
        var state = Self.pod()
        _ = state.finish(turn: 0, report: Self.report(clock: .seconds(1), ending: .failed), order: [], failed: true)
        #expect(!state.skips, "an ad that is not the last fails and the pod plays on")
        _ = state.finish(turn: 2, report: Self.report(clock: .seconds(1), ending: .failed), order: [], failed: true)
        #expect(state.skips)
    }
}
