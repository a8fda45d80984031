import BeaconSink
import Testing
import TestSupport
@testable import AdSession
import TrackingBeacons

/// `SessionConfiguration.beaconDrain`: how long the end of a session waits for beacons still in flight.
@Suite struct BeaconDrainTests {
    /// The sink never answers `/closeLinear` (fired as the session ends). With the default 10 s drain the beacon would
    /// run into its 5 s timeout ("timed out"); the configured 0.5 s drain ends the wait first, so it is left over.
    /// Three minutes: alone it takes under a second, but in a parallel run the tests that decode on the cooperative
    /// pool can starve it for more than one.
    @Test(.hangLimit)
    func beaconDrain_endsTheWaitForAHungBeacon_beforeItsTimeout() async throws {
        var configuration = SessionConfiguration(tag: Repo.media("demo.xml"))
        configuration.now = 1_767_225_600_000
        configuration.sink = .loopback
        configuration.sinkFaults = [try SinkFault(spec: "hang@/closeLinear")]
        configuration.beaconDrain = .milliseconds(500)
        let recorder = Recorder()
        let summary = await AdSessionRunner(configuration: configuration).run { await recorder.add($0) }
        let hung = try #require(await recorder.beacons.first { $0.event == "closeLinear" })
        #expect([BeaconFailure.unansweredAtSessionEnd, .notSentBeforeSessionEnd].contains(hung.failure), "\(hung.error ?? "none")")
        #expect(summary.beaconsFailed == 1 && summary.beaconsDelivered == 11)
    }
}
