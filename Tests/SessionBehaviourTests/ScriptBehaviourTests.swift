import AdSession
import Foundation
import PlayerEngine
import Testing
import TrackingBeacons
import TestSupport

/// Scripts (issue 4): the user and the operating system interrupting the demo (10.000 s, skippable at 5 s, a reward
/// of 10 Coins on completion, an end-card companion), at exact times.
@Suite struct ScriptBehaviourTests {
    let kit = SessionKit()

    @Test func backgroundAt3ForegroundAt13_pausesThePlayheadNotTheClock() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", "background@3,foreground@13"])
        #expect(run.summary.outcome == .completed)
        #expect(run.events(.firstQuartile).map(\.clock) == [.milliseconds(2500)])
        let pause = try #require(run.events(.pause).first)
        #expect(pause.playhead == .seconds(3) && pause.clock == .seconds(3) && pause.detailText == "inactive")
        #expect(run.events(.resume).map(\.clock) == [.seconds(13)])
        #expect(run.events(.midpoint).map { [$0.playhead, $0.clock] } == [[.seconds(5), .seconds(15)]])
        #expect(run.events(.complete).map { [$0.playhead, $0.clock] } == [[.seconds(10), .seconds(20)]])
        #expect(run.events(.rewarded).map { $0.reward?.currency } == ["Coins"])
        // Beacons carry the playhead of their own event.
        #expect(run.beacons("pause").first?.url.contains("pos=00%3A00%3A03.000") == true)
        #expect(run.beacons("midpoint").first?.url.contains("pos=00%3A00%3A05.000") == true)
        // The demo has an end-card companion: its creativeView fires when shown.
        #expect(run.events(.endCardShown).count == 1 && run.beacons("companion.creativeView").count == 1)
        #expect(run.summary.playback?.rewardGranted == true)
    }

    @Test func skipBeforeTheOffset_isRejected_thenSkipFiresItsBeaconAndNothingAfter() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", "skip@4,skip@6"])
        #expect(run.events(.rejected).first?.detailText?.hasPrefix("skip: not skippable until 5.000 s") == true)
        #expect(run.events(.skip).map(\.playhead) == [.seconds(6)])
        #expect(run.events(.thirdQuartile).isEmpty && run.events(.complete).isEmpty && run.events(.rewarded).isEmpty)
        #expect(run.beacons("skip").count == 1)
        #expect(run.summary.playback?.rewardGranted == false)
    }

    @Test func closeBeforeComplete_forfeitsTheReward_andFiresCloseLinear() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", "close@4"])
        #expect(run.events(.rewardForfeited).map(\.clock) == [.seconds(4)] && run.events(.rewarded).isEmpty)
        #expect(run.beacons("closeLinear").map(\.playhead) == [.seconds(4)])
        #expect(run.summary.playback?.ending == .closedEarly)
    }

    @Test func aScriptFile_playsAsTheSameInlineScript() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("script.json", #"[{"at": 1, "action": "mute"}, {"at": "+1", "action": "willResignActive"}, {"at": 4, "action": "didBecomeActive"}]"#)
        let fromFile = try await kit.run(cli: ["--vast", "media/demo.xml", "--script-file", file])
        let inline = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", "mute@1,willResignActive@+1,didBecomeActive@4"])
        // Beacons are recorded as their answers come back, concurrently: compared as sets of URLs.
        #expect(fromFile.events == inline.events && fromFile.planned.map(\.url).sorted() == inline.planned.map(\.url).sorted())
        #expect(fromFile.events(.complete).map(\.clock) == [.seconds(12)])
    }

    @Test func pauseBeacons_onlyTheFirst_whenRepeatTrackingIsFirst() async throws {
        let script = "pause@1,resume@2,pause@3,resume@4"
        let every = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", script])
        let once = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", script, "--repeat-tracking", "first"])
        #expect(every.beacons("pause").map(\.playhead) == [.seconds(1), .seconds(2)], "paused 1 s of the 3")
        #expect(once.beacons("pause").map(\.playhead) == [.seconds(1)])
        #expect(once.events(.pause).count == 2, "the events still happen")
    }
}
