import AdSession
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// Script steps timed from the ad request (issue 44, item 2): the app can go to the background while the tag or the
/// media is still loading (googleads-ima-android#14, googleads-mobile-ios-examples#267). As a correct SDK does,
/// loading goes on in the background and the first frame waits until the app is active again. On the kit's clocks:
/// the simulated network's startup delay (FFmpeg's byte map) and the manual network clock the wait sleeps on.
@Suite(.hangLimit) struct LoadLifecycleBehaviourTests {
    /// The script's own reading of load steps, as a value: the first frame, what happened while loading, and where the
    /// later load steps land on the session clock.
    @Test func loadSteps_placeTheFirstFrame_andTheRestOnTheSessionClock() throws {
        let script = try SessionScript(parsing: "background@load+0.5,foreground@load+3,mute@2,background@load+5,foreground@+1")
        #expect(script.steps.map(\.text) == ["mute@2"] && script.loadSteps.count == 4)
        let late = script.afterLoading(readyAt: .seconds(1))
        #expect(late.shown == .seconds(3) && late.waited == .seconds(2))
        #expect(late.steps.map(\.text) == ["background@load+0.5", "foreground@load+3"])
        #expect(late.script.steps.map { "\($0.text) \($0.at)" } == ["mute@2 2.0 seconds", "background@load+5 2.0 seconds", "foreground@+1 3.0 seconds"])
        // Ready after the app came back: shown when ready, nothing waited.
        let ready = script.afterLoading(readyAt: .seconds(4))
        #expect(ready.shown == .seconds(4) && ready.waited == .zero && ready.steps.count == 2)
        #expect(ready.script.steps.map(\.at) == [.seconds(1), .seconds(2), .seconds(2)])
    }

    @Test func loadSteps_areLifecycleOnly_andMustBringTheAppBack() {
        #expect(throws: SessionScript.ParseError.self) { try SessionScript(parsing: "skip@load+1") }
        #expect(throws: SessionScript.ParseError.self) { try SessionScript(parsing: "background@load+1") }
        #expect(throws: SessionScript.ParseError.self) { try SessionScript(parsing: "background@load+x") }
        #expect((try? SessionScript(parsing: "onPause@load,onStop@load+0.1,onStart@load+1,onResume@load+1.2")) != nil)
        #expect(throws: (any Error).self) {
            _ = try SessionKit().configuration(cli: ["--vmap", "media/vmap/demo.xml", "--script", "background@load,foreground@load+1"])
        }
    }

    /// The demo on 100 kbps is ready about 2.5 s after the request. Backgrounded at 0.5 s and back at 6 s, it shows at
    /// 6 s: the first frame, the impression and every quartile wait for the app (the wall clock of `[TIMESTAMP]` too),
    /// and the summary says so.
    @Test func aBackgroundWhileLoading_holdsTheFirstFrameUntilTheAppIsBack() async throws {
        var kit = SessionKit()
        kit.realMedia = true
        let arguments = ["--vast", "media/demo.xml", "--network", "kbps=100,rtt=100"]
        let plain = try await kit.run(cli: arguments)
        let ready = try #require(plain.summary.playback?.startupDelay)
        var configuration = try kit.configuration(cli: arguments + ["--script", "background@load+0.5,foreground@load+6,background@load+8,foreground@load+9"])
        configuration.now = nil  // [TIMESTAMP] from the kit's wall clock, which follows the network clock
        let run = await kit.run(configuration) { drive in
            await drive.clock.waitForSleepers()
            drive.clock.advance(by: .seconds(6) - ready)
        }
        let loading = try #require(run.summary.loading)
        #expect(loading.ready == ready && loading.shown == .seconds(6))
        #expect(loading.steps.map(\.text) == ["background@load+0.5", "foreground@load+6"])
        #expect(run.summary.outcome == .completed && run.events(.complete).count == 1)
        #expect(run.events(.pause).map(\.clock) == [.seconds(2)], "load+8 is 2 s after the first frame at load+6: \(run.eventNames)")
        let wait = (Duration.seconds(6) - ready).wholeMilliseconds
        let stamp = "ts=2026-01-01T00%3A00%3A0\(wait / 1000).\(String(format: "%03d", Int(wait % 1000)))%2B00%3A00"
        #expect(run.beacons("impression").first?.url.contains(stamp) == true, "\(stamp) in \(run.beacons("impression").first?.url ?? "")")
        let sentAt = try #require(run.attempts.first { $0.planned.event == "impression" }?.sentAt)
        #expect(sentAt - kit.wallStart == wait, "the impression goes out when the app is back")
    }
}
