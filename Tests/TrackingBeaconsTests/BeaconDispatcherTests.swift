import Primitives
import Synchronization
import Testing
@testable import TrackingBeacons

/// A transport that records URLs and answers from a table, for the dispatcher's pure logic.
final class RecordingTransport: BeaconTransport {
    let sent = Mutex<[String]>([])
    /// Requests in flight now, and the most ever at once.
    let concurrency = Mutex<(now: Int, most: Int)>((0, 0))
    /// Answers in turn; the last one repeats. nil = connection refused (before sending); -1 = timed out;
    /// -2 = connection reset after the request was written.
    let statuses: [Int?]
    /// Wait before each answer, in turn; the last one repeats.
    let delays: [Duration]
    init(status: Int?, delay: Duration = .zero) { self.statuses = [status]; self.delays = [delay] }
    init(statuses: [Int?], delays: [Duration] = [.zero]) { self.statuses = statuses; self.delays = delays }
    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let index = sent.withLock { $0.append(url); return $0.count - 1 }
        concurrency.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer { concurrency.withLock { $0.now -= 1 } }
        let delay = delays[min(index, delays.count - 1)]
        if delay > .zero { try? await Task.sleep(for: delay) }
        let status = statuses[min(index, statuses.count - 1)]
        if status == -1 { return TransportOutcome(status: nil, error: "timed out", latency: timeout, bytes: 0) }
        if status == -2 { return TransportOutcome(status: nil, error: "connection reset", latency: delay, bytes: 0) }
        if status == nil { return TransportOutcome(status: nil, error: "connection refused", latency: delay, bytes: 0, failedBeforeSending: true) }
        return TransportOutcome(status: status, error: nil, latency: delay, bytes: 0)
    }
}

actor Collected {
    var records: [BeaconRecord] = []
    func add(_ record: BeaconRecord) { records.append(record) }
}

/// Waits (polling, at most 30 s) until `condition` holds: tests that end a session mid-flight wait for the state
/// they mean, not for a time, so a busy machine cannot change what they see.
func until(_ condition: @Sendable () async -> Bool) async {
    let clock = ContinuousClock()
    let limit = clock.now.advanced(by: .seconds(30))
    while !(await condition()), clock.now < limit { try? await Task.sleep(for: .milliseconds(1)) }
}

@Suite struct BeaconDispatcherTests {
    func planned(_ url: String) -> BeaconRecord {
        BeaconRecord(event: "start", source: "inline", template: url, url: url, playhead: .zero, clock: .zero, dryRun: true)
    }

    @Test func dryRun_recordsEveryRequestAndSendsNothing() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: nil, wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.submit(planned("http://a/2"))
        await dispatcher.finish(waitingAtMost: .seconds(1))
        let records = await collected.records
        #expect(records.map(\.url) == ["http://a/1", "http://a/2"])
        #expect(records.allSatisfy { $0.dryRun && $0.status == nil })
    }

    @Test func send_recordsStatusOrErrorOfEachAttempt() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 500), wallClock: { 42 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.finish(waitingAtMost: .seconds(5))
        let record = try! #require(await collected.records.first)
        #expect(record.status == 500 && record.error == "HTTP 500" && !record.delivered && !record.dryRun)
        #expect(record.sentAt == 42 && record.attempt == 1 && record.isFinalAttempt)
    }

    @Test func finish_reportsRequestsStillOpenAtTheDeadline() async {
        let collected = Collected()
        let transport = RecordingTransport(status: 200, delay: .seconds(30))
        let dispatcher = BeaconDispatcher(transport: transport, wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        await until { transport.sent.withLock { $0.count } == 1 }
        await dispatcher.finish(waitingAtMost: .milliseconds(50))
        let records = await collected.records
        #expect(records.count == 1)
        #expect(records.first?.error == "unanswered at session end")
    }

    @Test func finish_attemptOnTheWire_keepsItsAttemptNumberAndSentAt() async {
        let collected = Collected()
        let transport = RecordingTransport(statuses: [500, 200], delays: [.zero, .seconds(30)])
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(retries: 2, backoff: .milliseconds(1)),
                                          wallClock: { 1_767_225_600_000 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        await until { transport.sent.withLock { $0.count } == 2 }
        await dispatcher.finish(waitingAtMost: .zero)
        let records = await collected.records
        #expect(records.map(\.attempt) == [1, 2])
        #expect(records.map(\.error) == ["HTTP 500", "unanswered at session end"])
        #expect(records.last?.sentAt == 1_767_225_600_000 && records.last?.isFinalAttempt == true && records.last?.wasSent == true)
    }

    @Test func finish_beaconStillWaitingForASlot_isNotSent_withoutASendTime() async {
        let collected = Collected()
        let transport = RecordingTransport(status: 200, delay: .seconds(30))
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(maxConcurrent: 1),
                                          wallClock: { 1_767_225_600_000 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        await dispatcher.submit(planned("http://slow/2"))
        await until { transport.sent.withLock { $0.count } == 1 }
        await dispatcher.finish(waitingAtMost: .zero)
        let records = await collected.records
        #expect(records.map(\.url) == ["http://slow/1", "http://slow/2"])
        #expect(records.map(\.error) == ["unanswered at session end", "not sent before session end"])
        #expect(records.map(\.sentAt) == [1_767_225_600_000, nil])
        #expect(records.map(\.wasSent) == [true, false])
        #expect(records.allSatisfy { !$0.dryRun && $0.isFinalAttempt && $0.attempt == 1 })
    }

    @Test func finish_retryWaitingForItsBackoff_isNotSent_withTheNumberItWouldHaveHad() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 503), policy: BeaconPolicy(retries: 3, backoff: .seconds(30)),
                                          wallClock: { 1_767_225_600_000 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await until { await collected.records.count == 1 }
        await dispatcher.finish(waitingAtMost: .zero)
        let records = await collected.records
        #expect(records.map(\.attempt) == [1, 2])
        #expect(records.map(\.error) == ["HTTP 503", "not sent before session end"])
        #expect(records.map(\.isFinalAttempt) == [false, true])
        #expect(records.last?.sentAt == nil)
    }
}

@Suite struct BeaconRetryTests {
    func run(_ transport: RecordingTransport, retries: Int) async -> [BeaconRecord] {
        let collected = Collected()
        let policy = BeaconPolicy(retries: retries, backoff: .milliseconds(1))
        let dispatcher = BeaconDispatcher(transport: transport, policy: policy, wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(BeaconRecord(event: "start", source: "inline", template: "http://a/1", url: "http://a/1", playhead: .zero, clock: .zero, dryRun: true))
        await dispatcher.finish(waitingAtMost: .seconds(5))
        return await collected.records
    }

    @Test func retries_500Then200_endsWithExactlyOneSuccess() async {
        let records = await run(RecordingTransport(statuses: [500, 200]), retries: 2)
        #expect(records.map(\.status) == [500, 200])
        #expect(records.map(\.attempt) == [1, 2])
        #expect(records.map(\.isFinalAttempt) == [false, true])
        #expect(records.filter(\.delivered).count == 1)
    }

    @Test func retries_connectionRefused_untilTheLimit() async {
        let transport = RecordingTransport(statuses: [nil])
        let records = await run(transport, retries: 2)
        #expect(records.count == 3 && records.last?.isFinalAttempt == true && records.last?.delivered == false)
    }

    @Test func noRetries_byDefault_andNeverAfterATimeoutOrA4xx() async {
        #expect(await run(RecordingTransport(statuses: [500]), retries: 0).count == 1)
        #expect(await run(RecordingTransport(statuses: [-1, 200]), retries: 3).count == 1, "a timed-out request may have arrived")
        #expect(await run(RecordingTransport(statuses: [404, 200]), retries: 3).count == 1)
    }

    @Test func noRetry_afterAResetOnceTheRequestWasWritten() async {
        let transport = RecordingTransport(statuses: [-2, 200])
        let records = await run(transport, retries: 3)
        #expect(records.map(\.error) == ["connection reset"], "the request reached the server")
        #expect(transport.sent.withLock { $0.count } == 1)
    }

    @Test func concurrencyLimit_holdsRequestsInFlight() async {
        let transport = RecordingTransport(status: 200, delay: .milliseconds(20))
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(maxConcurrent: 2), wallClock: { 0 }) { await collected.add($0) }
        for index in 0..<6 {
            await dispatcher.submit(BeaconRecord(event: "e", source: "inline", template: "", url: "http://a/\(index)", playhead: .zero, clock: .zero, dryRun: true))
        }
        await dispatcher.finish(waitingAtMost: .seconds(5))
        #expect(await collected.records.count == 6)
        #expect(transport.concurrency.withLock { $0.most } == 2, "never more than two at once, and two did overlap")
    }
}
