import Testing
@testable import PlayerEngine

/// Issue 17: what the engine does for an ad of a pod that another ad follows (`handsOver`), the pod's reward held
/// for a later ad (`.later`), the mute state carried in, and scripts written relative to an ad (`skip@ad2+5`).
@Suite struct PodPlaybackTests {
    func s(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    func rules(handsOver: Bool, reward: Bool = false, threshold: PlaybackRules.RewardThreshold = .complete) -> PlaybackRules {
        var rules = PlaybackRules(duration: s(10))
        rules.handsOver = handsOver
        rules.skipOffset = s(2)
        rules.hasEndCard = true
        if reward { rules.reward = Reward(currency: "coins", amount: 1) }
        rules.rewardThreshold = threshold
        return rules
    }

    @Test func anAdThatHandsOver_endsAtItsComplete_withNoScreenAndNoClose() {
        var machine = AdPlayback(rules: rules(handsOver: true), duration: s(10))
        _ = machine.begin(at: .zero)
        let events = machine.advance(to: s(10)).map(\.name)
        #expect(events.suffix(1) == [.complete])
        #expect(!events.contains(.endCardShown) && !events.contains(.close) && !events.contains(.replayShown))
        #expect(machine.phase == .closed && machine.ending == .completed)
    }

    @Test func aSkip_ofAnAdThatHandsOver_closesIt_withoutAClose() {
        var machine = AdPlayback(rules: rules(handsOver: true, reward: true, threshold: .later), duration: s(10))
        _ = machine.begin(at: .zero)
        let events = machine.handle(.action(.skip), at: s(3)).map(\.name)
        #expect(events == [.skippable, .firstQuartile, .skip, .rewardForfeited], "\(events)")
        #expect(machine.phase == .closed && machine.ending == .skipped)
    }

    @Test func aRewardHeldForALaterAd_isNeverGrantedHere() {
        var machine = AdPlayback(rules: rules(handsOver: true, reward: true, threshold: .later), duration: s(10))
        _ = machine.begin(at: .zero)
        let events = machine.advance(to: s(10)).map(\.name)
        #expect(!events.contains(.rewarded) && !events.contains(.rewardForfeited) && !machine.rewardGranted)
    }

    @Test func aMediaFailure_ofAnAdThatHandsOver_endsOnlyThatAd() {
        var machine = AdPlayback(rules: rules(handsOver: true), duration: s(10))
        _ = machine.begin(at: .zero)
        let events = machine.fail(.readFailed(location: "x", message: "gone"), at: s(4)).map(\.name)
        #expect(events == [.error])
        var last = AdPlayback(rules: rules(handsOver: false), duration: s(10))
        _ = last.begin(at: .zero)
        #expect(last.fail(.readFailed(location: "x", message: "gone"), at: s(4)).map(\.name) == [.error, .close])
    }

    @Test func anAdStartedMuted_refusesAMute_andUnmutes() {
        var r = rules(handsOver: false)
        r.startsMuted = true
        var machine = AdPlayback(rules: r, duration: s(10))
        _ = machine.begin(at: .zero)
        #expect(machine.handle(.action(.mute), at: s(1)).map(\.detail) == [.refused(step: "mute", .alreadyMuted)])
        #expect(machine.handle(.action(.unmute), at: s(1.5)).map(\.name) == [.unmute])
    }

    @Test func scriptSteps_canBeRelativeToAnAd() throws {
        let script = try SessionScript(parsing: "mute@1,skip@ad2+5,close@+1,click@ad3,pause@2")
        let steps = script.steps.map { "\($0.text) \($0.ad.map(String.init) ?? "-") \($0.at)" }
        #expect(steps == ["mute@1 - 1.0 seconds", "pause@2 - 2.0 seconds", "skip@ad2+5 2 5.0 seconds", "close@+1 2 6.0 seconds", "click@ad3 3 0.0 seconds"])
        for bad in ["skip@ad", "skip@ad0+1", "skip@ad2-1", "skip@ad2+x"] {
            #expect(throws: SessionScript.ParseError.self, "\(bad)") { try SessionScript(parsing: bad) }
        }
    }

    @Test func theStepsOfAnAd_areTheSessionsLeftShifted_andItsOwn_inTimeOrder() throws {
        let session = try SessionScript(parsing: "pause@6,resume@12")
        let own = try SessionScript(parsing: "mute@ad2+0.5").steps
        let (script, order) = SessionScript.forAd(startingAt: s(5), remaining: session.steps, own: own)
        #expect(script.steps.map(\.text) == ["mute@ad2+0.5", "pause@6", "resume@12"])
        #expect(script.steps.map(\.at) == [s(0.5), s(1), s(7)])
        #expect(order == [2, 0, 1])
    }
}
