import Synchronization
import Testing
@testable import TrackingBeacons

/// A transport that records URLs and answers from a table, for the dispatcher's pure logic.
final class RecordingTransport: BeaconTransport {
    let sent = Mutex<[String]>([])
    let status: Int?
    let delay: Duration
    init(status: Int?, delay: Duration = .zero) { self.status = status; self.delay = delay }
    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        sent.withLock { $0.append(url) }
        if delay > .zero { try? await Task.sleep(for: delay) }
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
        let dispatcher = BeaconDispatcher(transport: nil) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.submit(planned("http://a/2"))
        await dispatcher.finish(waitingAtMost: .seconds(1))
        let records = await collected.records
        #expect(records.map(\.url) == ["http://a/1", "http://a/2"])
        #expect(records.allSatisfy { $0.dryRun && $0.status == nil })
    }

    @Test func send_recordsStatusOrErrorOfEachAttempt() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 500)) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.finish(waitingAtMost: .seconds(5))
        let record = try! #require(await collected.records.first)
        #expect(record.status == 500 && record.error == "HTTP 500" && !record.delivered && !record.dryRun)
    }

    @Test func finish_reportsRequestsStillOpenAtTheDeadline() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 200, delay: .seconds(30))) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        await dispatcher.finish(waitingAtMost: .milliseconds(50))
        let records = await collected.records
        #expect(records.count == 1)
        #expect(records.first?.error == "unanswered at session end")
    }
}
