import Primitives
import Synchronization
import Testing
import TestSupport
@testable import TrackingBeacons

actor Collected {
    var records: [BeaconRecord] = []
    func add(_ record: BeaconRecord) { records.append(record) }
}

func planned(_ url: String) -> PlannedBeacon {
    PlannedBeacon(event: "start", source: "inline", template: url, url: url, playhead: .zero, clock: .zero)
}

/// The dispatcher: it executes the machine's actions on a `ManualClock`; no test waits in real time.
@Suite struct BeaconDispatcherTests {
    @Test func dryRun_recordsEveryRequestAndSendsNothing() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: nil, clock: ManualClock(), wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.submit(planned("http://a/2"))
        await dispatcher.finish(waitingAtMost: .seconds(1))
        let records = await collected.records
        #expect(records.map(\.url) == ["http://a/1", "http://a/2"])
        #expect(records.allSatisfy { $0.dryRun && $0.status == nil })
    }

    @Test func send_recordsStatusOrErrorOfEachAttempt() async throws {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 500), clock: ManualClock(), wallClock: { 42 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        await dispatcher.finish(waitingAtMost: .seconds(5))
        let record = try #require(await collected.records.first)
        #expect(record.status == 500 && record.error == "HTTP 500" && !record.delivered && !record.dryRun)
        #expect(record.sentAt == 42 && record.attempt == 1 && record.isFinalAttempt)
    }

    /// `finish` returns only when every answer is in `onRecord`'s hands, even when `onRecord` takes its time: what
    /// a caller reads right after `finish` (beacon-load's counts, a session's log) has every record.
    @Test func finish_returnsAfterEveryRecordWasHandedOn_evenWhenOnRecordSuspends() async {
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: RecordingTransport(status: 404), clock: ManualClock(), wallClock: { 0 }) { record in
            for _ in 0..<20 { await Task.yield() }
            await collected.add(record)
        }
        for index in 0..<200 { await dispatcher.submit(planned("http://a/\(index)")) }
        await dispatcher.finish(waitingAtMost: .seconds(60))
        #expect(await collected.records.count == 200)
        #expect(await collected.records.allSatisfy { $0.status == 404 })
    }

    /// The drain resumes the moment the last answer comes: no polling, no waiting out its limit.
    @Test func finish_returnsWhenTheLastAnswerComes_notAtItsLimit() async {
        let clock = ManualClock()
        let collected = Collected()
        let transport = RecordingTransport(status: 200, delay: .seconds(1), clock: clock)
        let dispatcher = BeaconDispatcher(transport: transport, clock: clock, wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        let finished = Task { await dispatcher.finish(waitingAtMost: .seconds(10)) }
        await clock.waitForSleepers(2)  // the answer's delay and the drain's limit
        clock.advance(by: .seconds(1))
        await finished.value
        #expect(clock.now.offset == .seconds(1))
        #expect(await collected.records.map(\.status) == [200])
    }

    @Test func finish_reportsRequestsStillOpenAtTheDeadline() async {
        let clock = ManualClock()
        let collected = Collected()
        let transport = RecordingTransport(status: 200, delay: .seconds(30), clock: clock)
        let dispatcher = BeaconDispatcher(transport: transport, clock: clock, wallClock: { 7 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://slow/1"))
        let finished = Task { await dispatcher.finish(waitingAtMost: .milliseconds(50)) }
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(50))
        await finished.value
        let records = await collected.records
        #expect(records.map(\.error) == ["unanswered at session end"])
        #expect(records.first?.sentAt == 7 && records.first?.wasSent == true)
        await clock.waitForSleepers(0)
        #expect(clock.sleeperCount == 0, "the attempt on the wire was cancelled")
    }

    /// Ctrl-C during the end-of-session drain: the wait ends `hurry`'s 2 s later, not at the 60 s `--beacon-drain`.
    @Test func hurry_duringTheDrain_endsItWithinItsLimit_exactly() async {
        let clock = ManualClock()
        let collected = Collected()
        let transport = RecordingTransport(status: 200, delay: .seconds(300), clock: clock)
        let dispatcher = BeaconDispatcher(transport: transport, clock: clock, wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://hung/1"))
        let finished = Task { await dispatcher.finish(waitingAtMost: .seconds(60)) }
        await clock.waitForSleepers(2)  // the hung answer and the drain's limit
        clock.advance(by: .seconds(5))
        dispatcher.hurry(within: .seconds(2))
        await clock.waitForSleepers(3)
        clock.advance(by: .milliseconds(1999))
        #expect(await collected.records.isEmpty, "not before the hurry's 2 s")
        clock.advance(by: .milliseconds(1))
        await finished.value
        #expect(clock.now.offset == .seconds(7), "5 s into the drain, then 2 s: not the 60 s drain")
        #expect(await collected.records.map(\.error) == ["unanswered at session end"])
    }

    /// The signal can come just before the drain starts waiting: the drain then waits the hurry's limit at most.
    @Test func hurry_beforeTheDrainStarts_stillShortensIt() async {
        let clock = ManualClock()
        let transport = RecordingTransport(status: 200, delay: .seconds(300), clock: clock)
        let dispatcher = BeaconDispatcher(transport: transport, clock: clock, wallClock: { 0 }) { _ in }
        await dispatcher.submit(planned("http://hung/1"))
        dispatcher.hurry(within: .seconds(2))
        let finished = Task { await dispatcher.finish(waitingAtMost: .seconds(60)) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        await finished.value
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func retry_waitsItsBackoffOnTheNetworkClock() async {
        let clock = ManualClock()
        let collected = Collected()
        let transport = RecordingTransport(statuses: [503, 200], clock: clock)
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(retries: 2, backoff: .seconds(2)), clock: clock,
                                          wallClock: { 0 }) { await collected.add($0) }
        await dispatcher.submit(planned("http://a/1"))
        let finished = Task { await dispatcher.finish(waitingAtMost: .seconds(10)) }
        await clock.waitForSleepers(2)  // the backoff and the drain's limit
        #expect(transport.sent.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(1999))
        #expect(transport.sent.withLock { $0.count } == 1, "not before its backoff")
        clock.advance(by: .milliseconds(1))
        await finished.value
        #expect(await collected.records.map(\.status) == [503, 200])
        #expect(clock.now.offset == .seconds(2))
    }
}

/// The machine: slots, retries and the end-of-session bookkeeping, with plain values.
@Suite struct DispatchMachineTests {
    func sends(_ actions: [DispatchMachine.Action]) -> [Int] {
        actions.compactMap { if case let .send(id, _) = $0 { id } else { nil } }
    }

    func records(_ actions: [DispatchMachine.Action]) -> [BeaconRecord] {
        actions.compactMap { if case let .record(record, _) = $0 { record } else { nil } }
    }

    /// Where the caller counts a beacon stays with the dispatcher, beside the beacon, and comes back with each of
    /// its records: a retried attempt's and the final one's.
    @Test func countedAt_comesBackWithEveryRecordOfItsBeacon() {
        var machine = DispatchMachine(policy: BeaconPolicy(retries: 1, backoff: .milliseconds(500)))
        _ = machine.submit(planned("http://a/1"), countedAt: 7, now: 1)
        _ = machine.submit(planned("http://a/2"), now: 1)
        func counted(_ actions: [DispatchMachine.Action]) -> [Int?] {
            actions.compactMap { if case let .record(_, countedAt) = $0 { countedAt } else { nil } }
        }
        #expect(counted(machine.answered(id: 0, TransportOutcome(status: 500, error: nil, latency: .zero, bytes: 0), now: 2)) == [7])
        _ = machine.backoffElapsed(id: 0, now: 3)
        #expect(counted(machine.answered(id: 0, TransportOutcome(status: 204, error: nil, latency: .zero, bytes: 0), now: 4)) == [7])
        #expect(counted(machine.answered(id: 1, TransportOutcome(status: 204, error: nil, latency: .zero, bytes: 0), now: 4)) == [nil])
    }

    @Test func retries_500Then200_endsWithExactlyOneSuccess() {
        var machine = DispatchMachine(policy: BeaconPolicy(retries: 2, backoff: .milliseconds(500)))
        #expect(sends(machine.submit(planned("http://a/1"), now: 1)) == [0])
        let first = machine.answered(id: 0, RecordingTransport.outcome(500), now: 2)
        #expect(records(first).map(\.isFinalAttempt) == [false])
        #expect(first.contains(.wait(id: 0, .milliseconds(500))))
        let retry = machine.backoffElapsed(id: 0, now: 3)
        guard case let .send(_, attempt)? = retry.first else { Issue.record("no retry sent"); return }
        #expect(attempt == .init(url: "http://a/1", number: 2, sentAt: 3))
        let last = records(machine.answered(id: 0, RecordingTransport.outcome(200), now: 4))
        #expect(last.map(\.status) == [200] && last.map(\.isFinalAttempt) == [true])
        #expect(machine.pending == 0)
    }

    /// A flight's slot is used again once it ends, under a new id: an answer or a backoff for the ended flight's id
    /// changes nothing, and the new flight is answered by its own.
    @Test func anEndedFlightsId_findsNothing_whenItsSlotCarriesANewFlight() {
        var machine = DispatchMachine(policy: BeaconPolicy(retries: 1, backoff: .milliseconds(100)))
        #expect(sends(machine.submit(planned("http://a/first"), now: 0)) == [0])
        #expect(records(machine.answered(id: 0, RecordingTransport.outcome(200), now: 1)).map(\.url) == ["http://a/first"])
        let second = sends(machine.submit(planned("http://a/second"), now: 2))
        #expect(second.count == 1 && second != [0], "the slot again, a new id")
        #expect(machine.answered(id: 0, RecordingTransport.outcome(200), now: 3).isEmpty, "the ended flight's late answer")
        #expect(machine.backoffElapsed(id: 0, now: 3).isEmpty)
        #expect(machine.pending == 1)
        #expect(records(machine.answered(id: second[0], RecordingTransport.outcome(200), now: 4)).map(\.url) == ["http://a/second"])
        #expect(machine.pending == 0)
        // Left at the end, in the order they were submitted whatever their slots.
        let ids = (0..<3).flatMap { sends(machine.submit(planned("http://a/\($0)"), now: 5)) }
        _ = machine.answered(id: ids[0], RecordingTransport.outcome(200), now: 6)
        _ = machine.submit(planned("http://a/3"), now: 7)
        #expect(records(machine.close()).map(\.url) == ["http://a/1", "http://a/2", "http://a/3"])
    }

    @Test func backoff_doublesEachTime() {
        var machine = DispatchMachine(policy: BeaconPolicy(retries: 3, backoff: .milliseconds(100)))
        _ = machine.submit(planned("http://a/1"), now: 0)
        var waits: [Duration] = []
        for _ in 0..<3 {
            for action in machine.answered(id: 0, RecordingTransport.outcome(nil), now: 0) {
                if case let .wait(_, duration) = action { waits.append(duration) }
            }
            _ = machine.backoffElapsed(id: 0, now: 0)
        }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(records(machine.answered(id: 0, RecordingTransport.outcome(nil), now: 0)).first?.isFinalAttempt == true, "retries spent")
    }

    @Test func noRetries_byDefault_andNeverAfterATimeoutA4xxOrAReset() {
        for (retries, status) in [(0, 500), (3, -1), (3, 404), (3, -2)] as [(Int, Int?)] {
            var machine = DispatchMachine(policy: BeaconPolicy(retries: retries))
            _ = machine.submit(planned("http://a/1"), now: 0)
            let actions = machine.answered(id: 0, RecordingTransport.outcome(status), now: 0)
            #expect(records(actions).map(\.isFinalAttempt) == [true], "status \(String(describing: status))")
            #expect(machine.pending == 0)
        }
    }

    @Test func concurrencyLimit_queuesBeyondItsSlots_firstComeFirstServed() {
        var machine = DispatchMachine(policy: BeaconPolicy(maxConcurrent: 2))
        let started = (0..<5).flatMap { sends(machine.submit(planned("http://a/\($0)"), now: 0)) }
        #expect(started == [0, 1])
        #expect(sends(machine.answered(id: 1, RecordingTransport.outcome(200), now: 0)) == [2])
        #expect(sends(machine.answered(id: 0, RecordingTransport.outcome(200), now: 0)) == [3])
        #expect(machine.pending == 3)
    }

    @Test func close_recordsUnansweredNotSentAndWaitingRetries() {
        var machine = DispatchMachine(policy: BeaconPolicy(retries: 3, maxConcurrent: 2))
        _ = machine.submit(planned("http://a/wire"), now: 9)
        _ = machine.submit(planned("http://a/retry"), now: 9)
        _ = machine.submit(planned("http://a/queued"), now: 9)
        _ = machine.answered(id: 1, RecordingTransport.outcome(503), now: 9)
        let closing = machine.close()
        let closed = records(closing)
        #expect(closed.map(\.url) == ["http://a/wire", "http://a/retry", "http://a/queued"])
        #expect(closed.map(\.failure) == [.unansweredAtSessionEnd, .notSentBeforeSessionEnd, .notSentBeforeSessionEnd])
        #expect(closed.map(\.failure?.code) == ["unansweredAtSessionEnd", "notSentBeforeSessionEnd", "notSentBeforeSessionEnd"])
        #expect(closed.map(\.attempt) == [1, 2, 1])
        #expect(closed.map(\.sentAt) == [9, nil, nil])
        #expect(closed.allSatisfy { $0.isFinalAttempt && !$0.dryRun })
        #expect(closing.contains(.cancel(id: 0)) && closing.contains(.cancel(id: 1)))
        #expect(machine.answered(id: 0, RecordingTransport.outcome(200), now: 9).isEmpty, "a late answer is dropped")
        #expect(machine.submit(planned("http://a/late"), now: 9).isEmpty, "nothing new goes out")
    }
}

/// A transport that starts attempts at once (`startNow`) for URLs with `/now`: answering `/now/sync…` before
/// `startNow` returns, the others when the test calls `answer`; any other URL goes through `send`.
final class ImmediateTransport: AffineTransport {
    let startedNow = Mutex<[String]>([])
    let sentInTasks = Mutex<[String]>([])
    private let pending = Mutex<[(url: String, done: @Sendable (TransportOutcome) -> Void)]>([])
    let status: Int

    init(status: Int = 204) { self.status = status }

    /// No preference: attempts that do not start at once run on Swift's default executor.
    var attemptExecutor: (any TaskExecutor)? { nil }

    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        sentInTasks.withLock { $0.append(url) }
        return RecordingTransport.outcome(status)
    }

    func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool {
        guard url.contains("/now") else { return false }
        startedNow.withLock { $0.append(url) }
        if url.contains("/now/sync") {
            done(RecordingTransport.outcome(status))
        } else {
            pending.withLock { $0.append((url, done)) }
        }
        return true
    }

    /// Answers the oldest attempt waiting; false when none waits.
    @discardableResult
    func answer(_ status: Int? = nil) -> Bool {
        guard let next = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        next.done(RecordingTransport.outcome(status ?? self.status))
        return true
    }
}

/// The dispatcher with records taken at once (a fleet's): attempts the transport can start at once go out without a
/// task and are recorded where their answers come; the rest as before.
@Suite struct ImmediateDispatchTests {
    final class Records: Sendable {
        let all = Mutex<[BeaconRecord]>([])
        func add(_ record: BeaconRecord) { all.withLock { $0.append(record) } }
    }

    /// A transport that starts `/now` URLs at once, a dispatcher on it whose records are taken at once, and them.
    static func dispatcher(_ policy: BeaconPolicy = BeaconPolicy(), clock: ManualClock = ManualClock())
        -> (transport: ImmediateTransport, records: Records, dispatcher: BeaconDispatcher) {
        let transport = ImmediateTransport(), records = Records()
        return (transport, records, BeaconDispatcher(transport: transport, policy: policy, clock: clock, wallClock: { 0 }, recordingNow: { record, _ in records.add(record) }))
    }

    @Test func startedAtOnce_answersFreeTheSlot_forTheNextWaitingBeacon_inOrder() async {
        let (transport, records, dispatcher) = Self.dispatcher(BeaconPolicy(maxConcurrent: 1))
        for index in 0..<3 { await dispatcher.submit(planned("http://a/now/\(index)")) }
        #expect(transport.startedNow.withLock { $0 } == ["http://a/now/0"], "one slot: the others wait")
        #expect(transport.answer())
        #expect(transport.startedNow.withLock { $0 } == ["http://a/now/0", "http://a/now/1"], "the answer started the next")
        #expect(transport.answer() && transport.answer())
        await dispatcher.finish(waitingAtMost: .seconds(1))
        let all = records.all.withLock { $0 }
        #expect(all.map(\.url) == ["http://a/now/0", "http://a/now/1", "http://a/now/2"])
        #expect(all.allSatisfy { $0.status == 204 && $0.isFinalAttempt && $0.failure == nil })
        #expect(transport.sentInTasks.withLock { $0 }.isEmpty)
    }

    @Test func anAnswerBeforeStartNowReturns_isRecorded_withoutADeadlock() async {
        let (_, records, dispatcher) = Self.dispatcher(BeaconPolicy(maxConcurrent: 2))
        for index in 0..<5 { await dispatcher.submit(planned("http://a/now/sync/\(index)")) }
        await dispatcher.finish(waitingAtMost: .seconds(1))
        #expect(records.all.withLock { $0 }.map(\.url) == (0..<5).map { "http://a/now/sync/\($0)" })
    }

    @Test func whatCannotStartAtOnce_goesInATask_andFinishWaitsForIt() async {
        let (transport, records, dispatcher) = Self.dispatcher()
        await dispatcher.submit(planned("http://a/later"))
        await dispatcher.submit(planned("http://a/now/sync"))
        await dispatcher.finish(waitingAtMost: .seconds(60))
        #expect(Set(records.all.withLock { $0 }.map(\.url)) == ["http://a/later", "http://a/now/sync"])
        #expect(transport.sentInTasks.withLock { $0 } == ["http://a/later"])
    }

    @Test func aRetriedAnswer_waitsItsBackoff_thenStartsAtOnceAgain() async {
        let clock = ManualClock()
        let (transport, records, dispatcher) = Self.dispatcher(BeaconPolicy(retries: 1, backoff: .seconds(2)), clock: clock)
        await dispatcher.submit(planned("http://a/now/1"))
        #expect(transport.answer(503))
        await clock.waitForSleepers()
        #expect(transport.startedNow.withLock { $0.count } == 1, "not before the backoff")
        clock.advance(by: .seconds(2))
        while transport.startedNow.withLock({ $0.count }) < 2 { await Task.yield() }
        #expect(transport.answer(204))
        await dispatcher.finish(waitingAtMost: .seconds(1))
        let all = records.all.withLock { $0 }
        #expect(all.map(\.status) == [503, 204] && all.map(\.attempt) == [1, 2] && all.map(\.isFinalAttempt) == [false, true])
    }

    @Test func theSessionEnd_closesAnAttemptStillOnTheWire_andItsLateAnswerIsDropped() async {
        let (transport, records, dispatcher) = Self.dispatcher()
        await dispatcher.submit(planned("http://a/now/1"))
        await dispatcher.finish(waitingAtMost: .zero)
        #expect(transport.answer())
        let all = records.all.withLock { $0 }
        #expect(all.count == 1 && all.first?.failure == .unansweredAtSessionEnd)
    }
}
