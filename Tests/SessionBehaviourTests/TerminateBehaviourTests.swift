import AdSession
import PlayerEngine
import Primitives
import Testing
import TestSupport
import TrackingBeacons

/// `terminate` (issue 44, item 3): the app's process is killed, as Android destroys a backgrounded activity
/// (googleads-mobile-unity#3915, #3728: callbacks and rewards lost). Nothing more plays or fires — no closeLinear, no
/// close, no reward and no forfeit — and every beacon not answered by then is lost with the app: neither delivered
/// nor failed. On the kit's manual network clock, the beacons answered after set delays: the session's beacons had
/// until the terminate's session time on that clock (a virtual session runs ahead of it, so the network catches up
/// first).
@Suite(.hangLimit) struct TerminateBehaviourTests {
    /// Waits until the session sleeps until `at` on the network clock (its catch-up before the kill).
    static func waitForTheKill(_ drive: SessionDrive, at: Duration) async {
        while drive.clock.nextDeadline != ManualClock.Instant(offset: at) { await Task.yield() }
    }

    @Test func terminate_withBeaconsInFlight_losesThem_andFiresNothingMore() async throws {
        var kit = SessionKit()
        kit.answers = [.status(204, delay: .seconds(60))]  // a server that holds every request
        let configuration = try kit.configuration(cli: ["--vast", "media/demo.xml", "--script", "terminate@3,close@4"])
        let run = await kit.run(configuration) { drive in
            await Self.waitForTheKill(drive, at: .seconds(3))
            drive.clock.advance(by: .seconds(3))
        }
        #expect(run.summary.outcome == .completed)
        #expect(run.summary.playback?.ending == .terminated && run.summary.clock == .seconds(3))
        #expect(run.summary.beaconsLost == run.planned.count && run.summary.beaconsLost > 0)
        #expect(run.summary.beaconsDelivered == 0 && run.summary.beaconsFailed == 0)
        #expect(run.attempts.filter(\.isFinalAttempt).allSatisfy { $0.failure == .lost })
        // Nothing after the kill: no closeLinear, no close, no reward or forfeit, and the later step is not reported.
        let names = run.eventNames
        for name: PlaybackEvent.Name in [.midpoint, .complete, .closeLinear, .close, .rewarded, .rewardForfeited, .rejected] {
            #expect(!names.contains(name), "\(name) in \(names)")
        }
        #expect(run.summary.playback?.rewardGranted == false)
    }

    /// Answered within the time the session had on the network clock: delivered; later (the first quartile's URL here,
    /// held 5 s): lost.
    @Test func beaconsAnsweredBeforeTheKill_areDelivered_theRestLost() async throws {
        var kit = SessionKit()
        kit.answers = [.status(204, delay: .seconds(1))]
        kit.answersByURL = [(contains: "/firstQuartile", answer: .status(204, delay: .seconds(5)))]
        let configuration = try kit.configuration(cli: ["--vast", "media/demo.xml", "--script", "terminate@3"])
        // Up to 3 s the demo fires 7 beacons (loaded, impression, creativeView, start, progress at 2 s, firstQuartile,
        // progress at 3 s), all sent at once on the network clock: 7 answers and the kill wait on it.
        let run = await kit.run(configuration) { drive in
            await drive.clock.waitForSleepers(8)
            drive.clock.advance(by: .seconds(1))
            // Every request but the held one answered and recorded before the kill comes.
            await drive.waitForRecords(6)
            drive.clock.advance(by: .seconds(2))
        }
        let lost = run.attempts.filter { $0.failure == .lost }.map(\.event)
        #expect(lost == ["firstQuartile"])
        #expect(run.summary.beaconsLost == 1 && run.summary.beaconsDelivered == run.planned.count - 1 && run.summary.beaconsFailed == 0)
    }

    /// A reward granted before the kill stays granted, with its callback beacon like any other; one not granted yet is
    /// lost (no grant, no forfeit).
    @Test func aRewardGrantedBeforeTheKill_stays_aLaterOneIsLost() async throws {
        let kit = SessionKit()
        for (at, granted) in [("2s", true), ("5s", false)] {
            // Every beacon answered at once: nothing is left to lose, so nothing waits.
            let run = await kit.run(try kit.configuration(cli: ["--vast", "media/demo.xml", "--reward-at", at, "--script", "terminate@3"]))
            #expect(run.summary.beaconsLost == 0 && run.summary.beaconsDelivered == run.planned.count)
            #expect(run.summary.playback?.rewardGranted == granted, "\(at)")
            #expect(run.events(.rewarded).count == (granted ? 1 : 0) && run.events(.rewardForfeited).isEmpty, "\(at): \(run.eventNames)")
        }
    }

    /// A fleet's `terminate` viewers, single ads and pods: the oracle predicts what each fired until the kill, and
    /// nothing after it (no closeLinear, no forfeit; a pod's later ads not played). In a fleet the kill's catch-up on
    /// the network clock is not modelled: what was fired is counted, answered.
    @Test(arguments: ["media/demo.xml", "media/pods/pod.xml"])
    func aFleetsTerminateViewers_areWhatTheOraclePredicts(_ tag: String) async throws {
        let (result, sent) = try await SessionKit().fleet(cli: ["fleet", "--vast", tag, "--sessions", "200", "--seed", "4", "--mix", "complete:50,terminate:50"])
        let report = try result.get()
        FleetOracleBehaviourTests.expectEveryBeaconCountedOnce(report, sent: sent)
        let terminated = try #require(report.population.scenarios["terminate"])
        #expect(terminated > 50 && terminated < 150, "\(report.population.scenarios)")
        #expect(report.population.rewardsForfeited == 0)
        #expect(report.population.endings["terminated"] == terminated, "\(report.population.endings)")
        // Only the viewers who watched to the end close the ad (a pod's last): none after a kill.
        let closeLinear = report.population.beacons.filter { $0.event == "closeLinear" }.map(\.sent).reduce(0, +)
        #expect(closeLinear == 200 - terminated, "\(closeLinear) closeLinear, \(terminated) killed")
    }
}
