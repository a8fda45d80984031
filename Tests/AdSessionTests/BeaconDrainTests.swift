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
        let run = await kit.run(configuration) { drive in
            // Every other answer taken in, the hung one and the drain wait on the network clock; then half a second
            // passes.
            await drive.waitForRecords(11)
            await drive.clock.waitForSleepers(2)
            drive.clock.advance(by: .milliseconds(500))
        }
        let hung = try #require(run.attempts.first { $0.event == "closeLinear" })
        #expect(hung.failure == .unansweredAtSessionEnd, "\(hung.error ?? "none")")
        #expect(run.summary.beaconsFailed == 1 && run.summary.beaconsDelivered == 11, "\(run.attempts.map { "\($0.event) \($0.failure.map(String.init(describing:)) ?? "-") \($0.status ?? 0)" })")
        #expect(kit.networkClock.now.offset == .milliseconds(500), "the drain ended at its limit, not at the timeout")
    }

    /// With the default 10 s drain, the same beacon waits out its 5 s timeout and fails as timed out, at exactly 5 s.
    @Test func aHungBeacon_failsAtItsTimeout_whenTheDrainIsLonger() async throws {
        var kit = SessionKit()
        kit.answersByURL = [("/closeLinear", .init(.timeout, delay: .seconds(5)))]
        let configuration = kit.configuration(Repo.media("demo.xml"))
        let run = await kit.run(configuration) { drive in
            await drive.waitForRecords(11)
            await drive.clock.waitForSleepers(2)
            drive.clock.advance(by: .seconds(5))
        }
        let hung = try #require(run.attempts.first { $0.event == "closeLinear" })
        #expect(hung.failure == .timedOut && hung.latency == .seconds(5), "\(hung.error ?? "none")")
        #expect(run.summary.beaconsFailed == 1 && run.summary.beaconsDelivered == 11, "\(run.attempts.map { "\($0.event) \($0.failure.map(String.init(describing:)) ?? "-") \($0.status ?? 0)" })")
    }

    /// One request at a time, every answer hung for the 1 s timeout, a 3.5 s drain: `loaded`, the impression and
    /// `creativeView` time out at 1, 2 and 3 s, `start` is on the wire when the drain ends at 3.5 s, and the other eight never leave.
    /// They are marked as never sent (no `sentAt`, attempt 1), which is not a delivery failure of a request.
    @Test func beaconsStillQueuedWhenTheDrainEnds_areMarkedNotSent_withoutASendTime() async throws {
        var kit = SessionKit()
        kit.answers = [.init(.timeout, delay: .seconds(1))]
        var configuration = kit.configuration(Repo.media("demo.xml"))
        configuration.beaconPolicy.maxConcurrent = 1
        configuration.beaconPolicy.timeout = .seconds(1)
        configuration.beaconDrain = .milliseconds(3500)
        let run = await kit.run(configuration) { drive in
            // Each step: the request on the wire and the drain both wait on the network clock. (The next request
            // goes out only once the last one's timeout is taken in.)
            for _ in 0..<3 {
                await drive.clock.waitForSleepers(2)
                drive.clock.advance(by: .seconds(1))
            }
            await drive.clock.waitForSleepers(2)
            drive.clock.advance(by: .milliseconds(500))
        }
        let final = run.attempts.filter { $0.failure != nil || $0.status != nil }
        let timedOut = final.filter { $0.failure == .timedOut }
        let unanswered = final.filter { $0.failure == .unansweredAtSessionEnd }
        let notSent = final.filter { $0.failure == .notSentBeforeSessionEnd }
        #expect(timedOut.map(\.event) == ["loaded", "impression", "creativeView"], "\(final.map(\.event))")
        #expect(timedOut.map(\.latency) == [.seconds(1), .seconds(1), .seconds(1)])
        #expect(unanswered.map(\.event) == ["start"] && notSent.count == 8)
        #expect(notSent.allSatisfy { $0.sentAt == nil && $0.attempt == 1 })
        #expect(run.sent.count == 4, "a beacon never sent is no request")
        #expect(kit.networkClock.now.offset == .milliseconds(3500))
    }
}
