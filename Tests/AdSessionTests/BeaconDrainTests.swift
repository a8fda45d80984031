import BeaconSink
import Testing
import TestSupport
@testable import AdSession
import TrackingBeacons

/// `SessionConfiguration.beaconDrain`: how long the end of a session waits for beacons still in flight.
@Suite struct BeaconDrainTests {
    @Test(.timeLimit(.minutes(1)))
    func beaconDrain_cutsTheWaitForAHungBeaconShort_andRecordsItUnanswered() async throws {
        var configuration = SessionConfiguration(tag: Repo.media("demo.xml"))
        configuration.now = 1_767_225_600_000
        configuration.sink = .loopback
        configuration.sinkFaults = [try SinkFault(spec: "hang@/midpoint")]
        configuration.beaconDrain = .milliseconds(500)
        let recorder = Recorder()
        let clock = ContinuousClock()
        let started = clock.now
        let summary = await AdSessionRunner(configuration: configuration).run { await recorder.add($0) }
        let elapsed = started.duration(to: clock.now)
        #expect(elapsed < .seconds(4), "the 0.5 s drain ends the wait long before the 5 s beacon timeout: \(elapsed)")
        let midpoint = try #require(await recorder.beacons.first { $0.event == "midpoint" })
        #expect(midpoint.error == BeaconDispatcher.unansweredError && midpoint.sentAt != nil && midpoint.attempt == 1)
        #expect(summary.reconciliation?.sent == 12 && summary.reconciliation?.received == 12)
        #expect(summary.beaconsFailed == 1)
    }
}
