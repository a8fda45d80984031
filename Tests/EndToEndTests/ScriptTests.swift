import Foundation
import Testing
import TestSupport

/// Issue 4's scenarios through `vplay --vast … --script … --json`: the same exact times as the engine tests.
@Suite struct ScriptTests {
    func events(_ run: Invocation) -> [[String: Any]] { run.lines.filter { $0["kind"] as? String == "event" } }
    func beacons(_ run: Invocation) -> [[String: Any]] { run.lines.filter { $0["kind"] as? String == "beacon" } }
    func first(_ name: String, _ list: [[String: Any]], key: String = "name") throws -> [String: Any] {
        try #require(list.first { $0[key] as? String == name }, "\(name) missing")
    }

    @Test func backgroundAt3ForegroundAt13_sameTimesAsTheEngine() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--script", "background@3,foreground@13"])
        #expect(run.status == 0, "\(run.stderr)")
        let list = events(run)
        #expect(try first("firstQuartile", list)["clock"] as? Double == 2.5)
        let pause = try first("pause", list)
        #expect(pause["playhead"] as? Double == 3.0 && pause["clock"] as? Double == 3.0 && pause["detail"] as? String == "inactive")
        #expect(try first("resume", list)["clock"] as? Double == 13.0)
        let midpoint = try first("midpoint", list)
        #expect(midpoint["playhead"] as? Double == 5.0 && midpoint["clock"] as? Double == 15.0)
        let complete = try first("complete", list)
        #expect(complete["playhead"] as? Double == 10.0 && complete["clock"] as? Double == 20.0)
        let rewarded = list.filter { $0["name"] as? String == "rewarded" }
        #expect(rewarded.count == 1)
        #expect((rewarded.first?["reward"] as? [String: Any])?["currency"] as? String == "Coins")
        // Beacons carry the playhead of their own event.
        #expect((try first("pause", beacons(run), key: "event")["url"] as? String)?.contains("pos=00%3A00%3A03.000") == true)
        #expect((try first("midpoint", beacons(run), key: "event")["url"] as? String)?.contains("pos=00%3A00%3A05.000") == true)
        // The demo has an end-card companion: its creativeView fires when shown.
        #expect(list.contains { $0["name"] as? String == "endCardShown" })
        #expect(beacons(run).contains { $0["event"] as? String == "companion.creativeView" })
        let summary = try #require(run.lines.last)
        #expect(summary["rewarded"] as? Bool == true && summary["ending"] as? String == "completed")
    }

    @Test func skipBeforeOffsetIsRejected_thenSkipFiresItsBeaconAndNothingAfter() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--script", "skip@4,skip@6"])
        #expect(run.status == 0)
        let list = events(run)
        #expect((try first("rejected", list)["detail"] as? String)?.hasPrefix("skip: not skippable until 5.000 s") == true)
        #expect(try first("skip", list)["playhead"] as? Double == 6.0)
        #expect(!list.contains { ["thirdQuartile", "complete", "rewarded"].contains($0["name"] as? String ?? "") })
        #expect(beacons(run).filter { $0["event"] as? String == "skip" }.count == 1)
        #expect(run.lines.last?["rewarded"] as? Bool == false)
    }

    @Test func closeBeforeComplete_noReward_closeLinearFires() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--script", "close@4"])
        #expect(run.status == 0)
        #expect(events(run).contains { $0["name"] as? String == "rewardForfeited" })
        #expect(!events(run).contains { $0["name"] as? String == "rewarded" })
        #expect(beacons(run).contains { $0["event"] as? String == "closeLinear" })
        #expect(run.lines.last?["ending"] as? String == "closedEarly")
    }

    @Test func scriptFile_JSON_isTheSameAsTheInlineScript() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("script.json", #"[{"at": 1, "action": "mute"}, {"at": "+1", "action": "willResignActive"}, {"at": 4, "action": "didBecomeActive"}]"#)
        let a = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--now", "0", "--script-file", file])
        let b = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--now", "0", "--script", "mute@1,willResignActive@+1,didBecomeActive@4"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(try first("complete", events(a))["clock"] as? Double == 12.0)
    }

    @Test func pauseBeaconsOnlyFirst_whenRepeatTrackingIsFirst() async throws {
        let script = "pause@1,resume@2,pause@3,resume@4"
        let every = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--script", script])
        let once = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--script", script, "--repeat-tracking", "first"])
        #expect(beacons(every).filter { $0["event"] as? String == "pause" }.count == 2)
        #expect(beacons(once).filter { $0["event"] as? String == "pause" }.count == 1)
        #expect(events(once).filter { $0["name"] as? String == "pause" }.count == 2, "the events still happen")
    }
}
