import Synchronization
import Testing
@testable import TrackingBeacons

/// A transport that records URLs and answers from a table, for the dispatcher's pure logic.
final class RecordingTransport: BeaconTransport {
    let sent = Mutex<[String]>([])
    /// Requests in flight now, and the most ever at once.
    let concurrency = Mutex<(now: Int, most: Int)>((0, 0))
    /// Answers in turn; the last one repeats. nil = connection refused; -1 = timed out.
    let statuses: [Int?]
    let delay: Duration
    init(status: Int?, delay: Duration = .zero) { self.statuses = [status]; self.delay = delay }
    init(statuses: [Int?]) { self.statuses = statuses; self.delay = .zero }
    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let index = sent.withLock { $0.append(url); return $0.count - 1 }
        concurrency.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer { concurrency.withLock { $0.now -= 1 } }
        if delay > .zero { try? await Task.sleep(for: delay) }
        let status = statuses[min(index, statuses.count - 1)]
        if status == -1 { return TransportOutcome(status: nil, error: "timed out", latency: timeout, bytes: 0) }
        return TransportOutcome(status: status, error: status == nil ? "connection refused" : nil, latency: delay, bytes: 0)
    }
}

actor Collected {
    var records: [BeaconRecord] = []
    func add(_ record: BeaconRecord) { records.append(record) }
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
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 200, delay: .seconds(30)), wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        await dispatcher.finish(waitingAtMost: .milliseconds(50))
        let records = await collected.records
        #expect(records.count == 1)
        #expect(records.first?.error == "unanswered at session end")
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
