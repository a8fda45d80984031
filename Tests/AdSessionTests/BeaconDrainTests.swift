import Testing
import TestSupport
@testable import AdSession
import TrackingBeacons

/// `SessionConfiguration.beaconDrain`: how long the end of a session waits for beacons still in flight, on the
/// session kit's manual network clock: the drain ends at exactly its limit, whatever the machine is doing.
@Suite struct BeaconDrainTests {
    /// The server never answers `/closeLinear` (fired as the session ends): its attempt times out after the default 5 s.
    /// The configured 0.5 s drain ends the wait first: that beacon is left over, unanswered, and every other was
    /// delivered.
    @Test func beaconDrain_endsTheWaitForAHungBeacon_beforeItsTimeout() async throws {
        var kit = SessionKit()
        kit.answersByURL = [("/closeLinear", .init(.timeout, delay: .seconds(5)))]
        var configuration = kit.configuration(Repo.media("demo.xml"))
        configuration.beaconDrain = .milliseconds(500)
        let run = await kit.run(configuration) { transport, clock in
            // The hung answer and the drain both wait on the network clock; then half a second passes.
            while !transport.urls.contains(where: { $0.contains("/closeLinear") }) { await Task.yield() }
            await clock.waitForSleepers(2)
            clock.advance(by: .milliseconds(500))
        }
        let hung = try #require(run.attempts.first { $0.event == "closeLinear" })
        #expect(hung.failure == .unansweredAtSessionEnd, "\(hung.error ?? "none")")
        #expect(run.summary.beaconsFailed == 1 && run.summary.beaconsDelivered == 11)
        #expect(kit.networkClock.now.offset == .milliseconds(500), "the drain ended at its limit, not at the timeout")
    }

    /// With the default 10 s drain, the same beacon waits out its 5 s timeout and fails as timed out, at exactly 5 s.
    @Test func aHungBeacon_failsAtItsTimeout_whenTheDrainIsLonger() async throws {
        var kit = SessionKit()
        kit.answersByURL = [("/closeLinear", .init(.timeout, delay: .seconds(5)))]
        let configuration = kit.configuration(Repo.media("demo.xml"))
        let run = await kit.run(configuration) { transport, clock in
            while !transport.urls.contains(where: { $0.contains("/closeLinear") }) { await Task.yield() }
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(5))
        }
        let hung = try #require(run.attempts.first { $0.event == "closeLinear" })
        #expect(hung.failure == .timedOut && hung.latency == .seconds(5), "\(hung.error ?? "none")")
        #expect(run.summary.beaconsFailed == 1 && run.summary.beaconsDelivered == 11)
    }
}
