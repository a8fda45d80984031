import AdSession
import BeaconSink
import Primitives
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

    /// The embedded sink comes from the session's environment (`SessionEnvironment.startSink`), configured with the
    /// run's faults, and its hits are timed on the wall clock it is given: the beacons reach the sink that the
    /// environment started, and no other.
    @Test func theSinkComesFromTheEnvironment_withTheRunsFaults() async throws {
        var configuration = try SessionKit().configuration(cli: LiveSession.patient(["--vast", "media/demo.xml", "--sink", "--beacon-timeout", "60",
                                                                                      "--sink-fault", "404@/midpoint"]))
        configuration.resolver.resolutionTimeout = .seconds(600)
        var environment = SessionEnvironment.live(configuration)
        let started = Locked<[(sink: BeaconSink, faults: [SinkFault])]>([])
        let wall: Int64 = 1_767_225_600_000
        environment.startSink = { sinkConfiguration in
            let (sink, port) = try await SessionEnvironment.embeddedSink(wallClock: { wall })(sinkConfiguration)
            started.withLock { $0.append((sink, sinkConfiguration.faults)) }
            return (sink, port)
        }
        let records = Locked<[SessionRecord]>([])
        _ = await AdSessionRunner(configuration: configuration, environment: environment).run { record in records.withLock { $0.append(record) } }
        let sink = try #require(started.withLock { $0.first }?.sink)
        #expect(started.withLock { $0.count } == 1)
        #expect(started.withLock { $0.first?.faults } == configuration.sinkFaults)
        let hits = sink.hits()
        #expect(hits.count == 12 && hits.allSatisfy { $0.receivedAtMilliseconds == wall }, "\(hits.map(\.receivedAtMilliseconds))")
        #expect(hits.filter { $0.path.hasSuffix("/midpoint") }.map(\.status) == [404])
        await sink.stop()
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
