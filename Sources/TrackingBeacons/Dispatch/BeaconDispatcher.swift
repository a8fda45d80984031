/// Sends tracking requests without ever holding up playback: each attempt runs in its own task, every attempt is
/// reported as a record when its answer comes, and `finish(waitingAtMost:)` waits for the stragglers at the end of a
/// session. With no transport (`--dry-run`) each request is recorded as planned and nothing is sent.
///
/// The bookkeeping (slots, retries, what is left at the end) is `DispatchMachine`, a pure value; this actor only
/// executes its actions. Timeouts, backoff and the drain run on the injected network clock (the wall clock's
/// monotonic time in a live session, so a virtual session never hammers a server with instant retries; a
/// `ManualClock` in tests).
public actor BeaconDispatcher {
    private let transport: (any BeaconTransport)?
    private let clock: any Clock<Duration>
    private let wallClock: @Sendable () -> Int64
    private let onRecord: @Sendable (BeaconRecord) async -> Void
    private var machine: DispatchMachine
    private var tasks: [Int: Task<Void, Never>] = [:]
    /// Waiters of `finish`, resumed when nothing is pending.
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - transport: the real sender, or nil for a dry run.
    ///   - clock: the network clock backoff and the drain's limit run on.
    ///   - wallClock: ms since 1970, for each attempt's `sentAt`.
    ///   - onRecord: called once per attempt with its record (in completion order).
    public init(transport: (any BeaconTransport)?, policy: BeaconPolicy = BeaconPolicy(), clock: any Clock<Duration>,
                wallClock: @escaping @Sendable () -> Int64, onRecord: @escaping @Sendable (BeaconRecord) async -> Void) {
        self.transport = transport
        self.clock = clock
        self.wallClock = wallClock
        self.onRecord = onRecord
        machine = DispatchMachine(policy: policy)
    }

    /// Sends (or, in a dry run, records) one planned request. Returns at once.
    public func submit(_ planned: PlannedBeacon) async {
        guard transport != nil else {
            await onRecord(BeaconRecord(planned: planned, dryRun: true))
            return
        }
        await execute(machine.submit(planned, now: wallClock()))
    }

    /// Waits until every request has its final answer or `limit` has passed on the network clock; the ones still
    /// open are then cancelled and recorded (`DispatchMachine.close()`). Resumes as soon as nothing is pending: no
    /// polling.
    public func finish(waitingAtMost limit: Duration) async {
        if machine.pending > 0 {
            let deadline = drainDeadline(after: hurryLimit.map { min($0, limit) } ?? limit)
            await withCheckedContinuation { idleWaiters.append($0) }
            deadline.cancel()
            for hurry in hurries { hurry.cancel() }
            hurries.removeAll()
        }
        await execute(machine.close())
    }

    /// Ends a `finish` that is waiting within `limit` at most from now (its own limit still holds if sooner): a
    /// signal during the end-of-session drain stops the wait in about `limit`, not the whole `--beacon-drain`.
    /// Also when it comes before `finish` starts waiting (the signal and the drain race): `finish` then waits
    /// `limit` at most.
    public func hurry(within limit: Duration) {
        hurryLimit = min(hurryLimit ?? limit, limit)
        if !idleWaiters.isEmpty { hurries.append(drainDeadline(after: limit)) }
    }

    private var hurries: [Task<Void, Never>] = []
    private var hurryLimit: Duration?

    private func drainDeadline(after limit: Duration) -> Task<Void, Never> {
        let clock = self.clock
        return Task { [weak self] in
            do { try await clock.sleep(for: limit) } catch { return }
            await self?.resumeIdleWaiters()
        }
    }

    private func execute(_ actions: [DispatchMachine.Action]) async {
        for action in actions {
            switch action {
            case let .record(record):
                await onRecord(record)
            case let .send(id, record):
                guard let transport else { continue }
                let timeout = machine.policy.timeout
                tasks[id] = Task { [weak self] in
                    let outcome = await transport.send(record.url, timeout: timeout)
                    if Task.isCancelled { return }
                    await self?.answered(id, outcome)
                }
            case let .wait(id, backoff):
                let clock = self.clock
                tasks[id] = Task { [weak self] in
                    do { try await clock.sleep(for: backoff) } catch { return }
                    await self?.backoffElapsed(id)
                }
            case let .cancel(id):
                tasks.removeValue(forKey: id)?.cancel()
            }
        }
        if machine.pending == 0 { resumeIdleWaiters() }
    }

    private func answered(_ id: Int, _ outcome: TransportOutcome) async {
        tasks[id] = nil
        await execute(machine.answered(id: id, outcome, now: wallClock()))
    }

    private func backoffElapsed(_ id: Int) async {
        tasks[id] = nil
        await execute(machine.backoffElapsed(id: id, now: wallClock()))
    }

    private func resumeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
