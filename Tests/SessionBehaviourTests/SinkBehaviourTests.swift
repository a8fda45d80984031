import AdSession
import Foundation
import Testing
import TestSupport
import TrackingBeacons

/// `--sink` with faults and retries, in process: the session on the live environment sends every beacon of the demo
/// over real loopback HTTP to the embedded sink it starts (`SinkHookup`), which answers as its faults say. Failures
/// are judged by what ended them (the error each attempt records), never by how long a busy machine took. That the
/// binary does the same, reconciled in its output, is `SinkTests`.
@Suite(.hangLimit) struct SinkBehaviourTests {
    static var reconciliation: (SessionRun) -> Reconciliation? {
        { run in run.records.compactMap { if case let .reconciliation(result) = $0 { result } else { nil } }.last }
    }

    @Test func faults_500SlowAndReset_areRecordedWithTheirReason_playbackTimingUnchanged() async throws {
        // A 10 s timeout against a 120 s delay: every other answer comes in milliseconds, so a test process starved on a
        // busy machine still gets them in time, and only the delayed one times out.
        let run = try await LiveSession.run(cli: ["--vast", "media/demo.xml", "--sink", "--beacon-timeout", "10", "--beacon-drain", "60",
                                                  "--fail-on-beacon-errors", "--sink-fault", "500@/midpoint", "--sink-fault", "delay=120s@/start",
                                                  "--sink-fault", "reset@/complete"])
        func beacon(_ event: String) -> BeaconRecord? { run.attempts.first { $0.event == event } }
        #expect(beacon("midpoint")?.status == 500 && beacon("midpoint")?.error == "HTTP 500")
        #expect(beacon("start")?.status == nil && beacon("start")?.error == "timed out")
        #expect(beacon("complete")?.status == nil && beacon("complete")?.error == "connection reset")
        #expect(run.events(.start).map(\.clock) == [.zero] && run.events(.midpoint).map(\.clock) == [.seconds(5)]
                && run.events(.complete).map(\.clock) == [.seconds(10)])
        #expect(run.summary.beaconsFailed == 3, "--fail-on-beacon-errors exits 5")
        // The requests did reach the sink (the server saw them even when the client got no good answer).
        #expect(Self.reconciliation(run)?.matched == 12)
    }

    @Test func retries_500Then200_endsWithExactlyOneSuccess() async throws {
        let run = try await LiveSession.run(cli: ["--vast", "media/demo.xml", "--sink", "--retries", "2", "--beacon-timeout", "60",
                                                  "--sink-fault", "500x1@/midpoint"])
        #expect(run.summary.outcome == .completed)
        let midpoints = run.attempts.filter { $0.event == "midpoint" }
        #expect(midpoints.map(\.status) == [500, 200] && midpoints.map(\.attempt) == [1, 2])
        #expect(Self.reconciliation(run)?.received == 13, "12 beacons, one of them twice")
        #expect(run.summary.beaconsFailed == 0)
    }

    @Test func retries_resetAfterTheRequestWasSent_isNotRetried_theSinkReceivesEachBeaconOnce() async throws {
        let run = try await LiveSession.run(cli: ["--vast", "media/demo.xml", "--sink", "--retries", "2", "--sink-fault", "reset@/midpoint"])
        let midpoints = run.attempts.filter { $0.event == "midpoint" }
        #expect(midpoints.count == 1 && midpoints.first?.error == "connection reset")
        let result = try #require(Self.reconciliation(run))
        #expect(result.received == 12 && result.sent == 12 && result.matched == 12)
    }

    @Test func stalledBody_isRecordedWithTheStatusThatArrived_atTheTimeout_notAtTheDrain() async throws {
        let run = try await LiveSession.run(cli: ["--vast", "media/demo.xml", "--sink", "--beacon-timeout", "10", "--beacon-drain", "60",
                                                  "--sink-fault", "stall@/midpoint"])
        let midpoint = try #require(run.attempts.first { $0.event == "midpoint" })
        // Ended by the 10 s timeout, not by the drain (which would say "unanswered at session end"); no upper bound on
        // the latency: a busy machine only makes it later. 10 s, not 1: a starved test process may read the head late.
        #expect(midpoint.status == 200 && midpoint.error == "timed out reading the body", "\(midpoint)")
        #expect((midpoint.latency ?? .zero) >= .seconds(10), "not before the 10 s timeout: \(String(describing: midpoint.latency))")
        #expect(run.summary.beaconsFailed == 0, "the server answered 200: delivered")
    }
}
