import Primitives

/// Sends tracking requests without ever holding up playback: each attempt runs in its own task, every attempt is
/// reported as a record when its answer comes, and `finish(waitingAtMost:)` waits for the stragglers at the end of a
/// session. With no transport (`--dry-run`) each request is recorded as planned and nothing is sent.
///
/// The bookkeeping (slots, retries, what is left at the end) is `DispatchMachine`, a pure value; this class only
/// executes its actions. Timeouts, backoff and the drain run on the injected network clock (the wall clock's
/// monotonic time in a live session, so a virtual session never hammers a server with instant retries; a
/// `ManualClock` in tests).
///
/// The machine and the tasks are behind one lock, taken for a few counter updates per beacon, so a fleet's sessions
/// and the answers coming back submit and complete on whatever thread they run on: an actor here made every beacon
/// hop to it twice and the fleet's sessions queue on it. Records are handed to `onRecord` outside the lock, in the
/// order each submit or answer produced them; records taken at once (`recordingNow`, which waits for nothing and
/// takes no lock of this dispatcher) are handed out under it, as they are made.
public final class BeaconDispatcher: Sendable {
    private struct State {
        var machine: DispatchMachine
        var tasks: [Int: Task<Void, Never>] = [:]
        /// Waiters of `finish`, resumed when nothing is pending.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var hurries: [Task<Void, Never>] = []
        var hurryLimit: Duration?
        /// Batches of records taken from the machine and not yet all handed to `onRecord`: `finish` waits for them
        /// too, so a caller that reads what `onRecord` collected after it finds every answer there.
        var reporting = 0

        var idle: Bool { machine.pending == 0 && reporting == 0 }
    }

    private let transport: (any BeaconTransport)?
    /// The transport when it has thread affinity (`AffineTransport`), asked once here.
    private let affine: (any AffineTransport)?
    /// `transport != nil`, kept: comparing the optional existential with nil copied it (a witness call and a
    /// reference count) for every beacon.
    private let sends: Bool
    private let clock: any Clock<Duration>
    private let wallClock: @Sendable () -> Int64
    private let onRecord: @Sendable (BeaconRecord, _ countedAt: Int?) async -> Void
    /// The same, when it does not wait: then answers are recorded where they come, and attempts the transport can
    /// start at once (`AffineTransport.startNow`) need no task.
    private let onRecordNow: (@Sendable (BeaconRecord, _ countedAt: Int?) -> Void)?
    private let timeout: Duration
    private let state: Locked<State>

    /// - Parameters:
    ///   - transport: the real sender, or nil for a dry run.
    ///   - clock: the network clock backoff and the drain's limit run on.
    ///   - wallClock: ms since 1970, for each attempt's `sentAt`.
    ///   - onRecord: called once per attempt with its record (in completion order).
    public convenience init(transport: (any BeaconTransport)?, policy: BeaconPolicy = BeaconPolicy(), clock: any Clock<Duration>,
                wallClock: @escaping @Sendable () -> Int64, onRecord: @escaping @Sendable (BeaconRecord) async -> Void) {
        self.init(transport: transport, policy: policy, clock: clock, wallClock: wallClock, onRecord: { record, _ in await onRecord(record) },
                  onRecordNow: nil)
    }

    /// A dispatcher whose records are taken at once (`onRecord` does not wait): a fleet's, counting them. Attempts
    /// the transport can start at once go out without a task, and their answers are recorded on the thread they come
    /// on (a pooled connection's event loop). Each record comes with where the caller counts its beacon (the
    /// `countedAt` it was submitted with).
    public convenience init(transport: (any BeaconTransport)?, policy: BeaconPolicy = BeaconPolicy(), clock: any Clock<Duration>,
                wallClock: @escaping @Sendable () -> Int64, recordingNow onRecord: @escaping @Sendable (BeaconRecord, _ countedAt: Int?) -> Void) {
        self.init(transport: transport, policy: policy, clock: clock, wallClock: wallClock, onRecord: { onRecord($0, $1) }, onRecordNow: onRecord)
    }

    private init(transport: (any BeaconTransport)?, policy: BeaconPolicy, clock: any Clock<Duration>, wallClock: @escaping @Sendable () -> Int64,
                 onRecord: @escaping @Sendable (BeaconRecord, Int?) async -> Void, onRecordNow: (@Sendable (BeaconRecord, Int?) -> Void)?) {
        self.transport = transport
        affine = transport as? any AffineTransport
        sends = transport != nil
        self.clock = clock
        self.wallClock = wallClock
        self.onRecord = onRecord
        self.onRecordNow = onRecordNow
        timeout = policy.timeout
        state = Locked(State(machine: DispatchMachine(policy: policy)))
    }

    /// Sends (or, in a dry run, records) one planned request. Returns at once.
    /// - Parameter countedAt: where the caller counts the beacon (a fleet tally's row): kept by the dispatcher beside
    ///   it and handed back with each of its records, so an answer is counted without looking its row up again.
    nonisolated(nonsending) public func submit(_ planned: PlannedBeacon, countedAt: Int? = nil) async {
        guard sends else {
            await onRecord(BeaconRecord(planned: planned, dryRun: true), countedAt)
            return
        }
        let now = wallClock()
        let batch = state.withLock { state in
            execute(in: &state) { machine, emit in machine.submit(planned, countedAt: countedAt, now: now, emit: emit) }
        }
        if !batch.records.isEmpty { await report(batch.records) }
        launch(batch)
    }

    /// Waits until every request has its final answer or `limit` has passed on the network clock; the ones still
    /// open are then cancelled and recorded (`DispatchMachine.close()`). Resumes as soon as nothing is pending: no
    /// polling.
    /// - Parameter lost: the app is killed at the limit (`terminate`): every beacon not answered by then — queued,
    ///   waiting for a retry or on the wire — is recorded as `BeaconFailure.lost`, and a later `finish` has nothing
    ///   left to wait for.
    public func finish(waitingAtMost limit: Duration, lost: Bool = false) async {
        let deadline: Task<Void, Never>? = state.withLock { state in
            guard !state.idle else { return nil }
            return drainDeadline(after: state.hurryLimit.map { min($0, limit) } ?? limit)
        }
        if let deadline {
            await withCheckedContinuation { continuation in
                let idle = state.withLock { state in
                    guard !state.idle else { return true }
                    state.idleWaiters.append(continuation)
                    return false
                }
                if idle { continuation.resume() }
            }
            deadline.cancel()
            let hurries = state.withLock { state in
                defer { state.hurries.removeAll() }
                return state.hurries
            }
            for hurry in hurries { hurry.cancel() }
        }
        await report(state.withLock { state in
            execute(in: &state) { machine, emit in for action in machine.close(lost: lost) { emit(action) } }
        }.records)
    }

    /// Ends a `finish` that is waiting within `limit` at most from now (its own limit still holds if sooner): a
    /// signal during the end-of-session drain stops the wait in about `limit`, not the whole `--beacon-drain`.
    /// Also when it comes before `finish` starts waiting (the signal and the drain race): `finish` then waits
    /// `limit` at most.
    public func hurry(within limit: Duration) {
        state.withLock { state in
            state.hurryLimit = min(state.hurryLimit ?? limit, limit)
            if !state.idleWaiters.isEmpty { state.hurries.append(drainDeadline(after: limit)) }
        }
    }

    private func drainDeadline(after limit: Duration) -> Task<Void, Never> {
        let clock = self.clock
        return Task { [weak self] in
            do { try await clock.sleep(for: limit) } catch { return }
            self?.state.withLock { Self.resumeIdleWaiters(&$0) }
        }
    }

    /// What `execute` leaves to do once the lock is let go: records to report (none when they are taken at once:
    /// those are handed out as they are made), attempts to start at once (most often one: kept out of an array).
    private struct Batch {
        var records: [(record: BeaconRecord, countedAt: Int?)] = []
        var start: (id: Int, url: String)?
        var moreStarts: [(id: Int, url: String)] = []

        mutating func append(start: (id: Int, url: String)) {
            if self.start == nil { self.start = start } else { moreStarts.append(start) }
        }
    }

    /// Runs `step` on the machine under the lock, executing each action it emits as it comes (tasks started, stopped,
    /// remembered), and returns the records to report and the attempts to start without a task (when records are
    /// taken at once).
    private func execute(in state: inout State,
                         _ step: (inout DispatchMachine, (consuming DispatchMachine.Action) -> Void) -> Void) -> Batch {
        var batch = Batch()
        step(&state.machine) { perform($0, tasks: &state.tasks, into: &batch) }
        settle(&batch, in: &state)
        return batch
    }

    /// Executes one action of the machine under the lock: a task started, stopped or remembered in `tasks`, a record
    /// handed out or kept in `batch`, an attempt to start at once kept there.
    private func perform(_ action: consuming DispatchMachine.Action, tasks: inout [Int: Task<Void, Never>], into batch: inout Batch) {
        switch consume action {
        case let .record(record, countedAt):
            if let onRecordNow { onRecordNow(record, countedAt) } else { batch.records.append((record, countedAt)) }
        case let .send(id, attempt):
            guard sends else { return }
            if onRecordNow != nil {
                batch.append(start: (id, attempt.url))
            } else {
                tasks[id] = attemptTask(id, attempt.url)
            }
        case let .wait(id, backoff):
            let clock = self.clock
            tasks[id] = Task { [weak self] in
                do { try await clock.sleep(for: backoff) } catch { return }
                await self?.advance(id) { $0.backoffElapsed(id: id, now: $1) }
            }
        case let .cancel(id):
            tasks.removeValue(forKey: id)?.cancel()
        }
    }

    /// After a batch's actions: `finish` let go when nothing is left, or its records counted as being reported.
    private func settle(_ batch: inout Batch, in state: inout State) {
        if batch.records.isEmpty {
            if state.idle { Self.resumeIdleWaiters(&state) }
        } else {
            state.reporting += 1
        }
    }

    /// An attempt in a task of its own, where the transport prefers. Made under the lock: its answer, on another
    /// thread, waits for the lock until the task is remembered.
    private func attemptTask(_ id: Int, _ url: String) -> Task<Void, Never> {
        let transport = self.transport!, timeout = self.timeout
        return Task(executorPreference: affine?.attemptExecutor) { [weak self] in
            let outcome = await transport.send(url, timeout: timeout)
            if Task.isCancelled { return }
            await self?.advance(id) { $0.answered(id: id, outcome, now: $1) }
        }
    }

    /// Starts a batch's attempts (outside the lock): at once where the transport can, else each in its task.
    private func launch(_ batch: Batch) {
        guard transport != nil, let first = batch.start else { return }
        func start(_ id: Int, _ url: String) {
            let started = affine?.startNow(url, timeout: timeout) { [weak self] outcome in
                self?.answeredNow(id, outcome)
            } ?? false
            if !started { state.withLock { $0.tasks[id] = attemptTask(id, url) } }
        }
        start(first.id, first.url)
        for (id, url) in batch.moreStarts { start(id, url) }
    }

    /// The answer of an attempt started at once, where it came: recorded there (under the lock, by `perform`: only a
    /// dispatcher whose records are taken at once starts attempts so), and what it frees started.
    private func answeredNow(_ id: Int, _ outcome: TransportOutcome) {
        let now = wallClock()
        launch(state.withLock { state in
            execute(in: &state) { machine, emit in machine.answered(id: id, outcome, now: now, emit: emit) }
        })
    }

    /// Hands a batch from `execute` to `onRecord`, then lets `finish` go if nothing else is left. (Records taken at
    /// once were handed out by `execute`: their batches are empty.)
    nonisolated(nonsending) private func report(_ records: [(record: BeaconRecord, countedAt: Int?)]) async {
        guard !records.isEmpty else { return }
        for (record, countedAt) in records { await onRecord(record, countedAt) }
        state.withLock { state in
            state.reporting -= 1
            if state.idle { Self.resumeIdleWaiters(&state) }
        }
    }

    private static func resumeIdleWaiters(_ state: inout State) {
        let waiters = state.idleWaiters
        state.idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Beacon `id`'s task is over (an answer, a backoff): the machine takes `transition` (with the wall time now).
    private func advance(_ id: Int, _ transition: (inout DispatchMachine, Int64) -> [DispatchMachine.Action]) async {
        let now = wallClock()
        let batch = state.withLock { state in
            state.tasks[id] = nil
            return execute(in: &state) { machine, emit in for action in transition(&machine, now) { emit(action) } }
        }
        await report(batch.records)
        launch(batch)
    }
}
