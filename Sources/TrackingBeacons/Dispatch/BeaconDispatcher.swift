/// Sends tracking requests without ever holding up playback: each one is handed to its own task, every attempt is
/// reported as a record when its answer comes, and `finish(waitingAtMost:)` waits for the stragglers at the end of a
/// session. With no transport (`--dry-run`) each request is recorded as planned and nothing is sent.
///
/// Beacons are real HTTP: their timeouts and retry backoff run on the wall clock (`ContinuousClock`) even when
/// playback runs on the virtual clock, so a virtual session never hammers a server with instant retries.
public actor BeaconDispatcher {
    /// The error of a beacon whose attempt was on the wire when the session ended.
    public static let unansweredError = "unanswered at session end"
    /// The error of a beacon that never went out: still waiting for a concurrency slot, or for its retry, when the
    /// session ended. Its record has no `sentAt`; it is not a request in the HAR or in the sink's reconciliation.
    public static let notSentError = "not sent before session end"

    /// One beacon not finished yet.
    private struct Flight {
        var planned: BeaconRecord
        var task: Task<Void, Never>?
        /// The attempt on the wire now (with its attempt number and `sentAt`); nil while waiting for a slot or a retry.
        var current: BeaconRecord?
        /// The number the next attempt will have.
        var nextAttempt = 1
    }

    private let transport: (any BeaconTransport)?
    private let policy: BeaconPolicy
    private let wallClock: @Sendable () -> Int64
    private let onRecord: @Sendable (BeaconRecord) async -> Void
    private var inFlight: [Int: Flight] = [:]
    private var nextID = 0
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Set by `finish` when the wait is over: no new attempt starts.
    private var closing = false

    /// - Parameters:
    ///   - transport: the real sender, or nil for a dry run.
    ///   - wallClock: ms since 1970, for each attempt's `sentAt` (injected: only the composition root reads the
    ///     machine's clock).
    ///   - onRecord: called once per attempt with its record (in completion order).
    public init(transport: (any BeaconTransport)?, policy: BeaconPolicy = BeaconPolicy(),
                wallClock: @escaping @Sendable () -> Int64, onRecord: @escaping @Sendable (BeaconRecord) async -> Void) {
        self.transport = transport
        self.policy = policy
        self.wallClock = wallClock
        self.onRecord = onRecord
    }

    /// Sends (or, in a dry run, records) one planned request. Returns at once.
    public func submit(_ planned: BeaconRecord) async {
        guard let transport else {
            var record = planned
            record.dryRun = true
            await onRecord(record)
            return
        }
        let id = nextID
        nextID += 1
        inFlight[id] = Flight(planned: planned)
        inFlight[id]?.task = Task { await self.deliver(planned, id: id, over: transport) }
    }

    private func deliver(_ planned: BeaconRecord, id: Int, over transport: any BeaconTransport) async {
        await acquire()
        defer { release() }
        var backoff = policy.backoff
        for attempt in 1...(policy.retries + 1) {
            // Once the session's end has come, nothing new goes out (a slot freed by a cancelled request must not
            // start one the end-of-session records would call "not sent").
            if Task.isCancelled || closing { return }
            var record = planned
            record.dryRun = false
            record.attempt = attempt
            record.sentAt = wallClock()
            inFlight[id]?.current = record
            let outcome = await transport.send(planned.url, timeout: policy.timeout)
            if Task.isCancelled { return }
            inFlight[id]?.current = nil
            inFlight[id]?.nextAttempt = attempt + 1
            record.status = outcome.status
            record.error = outcome.error ?? (outcome.delivered ? nil : outcome.status.map { "HTTP \($0)" })
            record.latency = outcome.latency
            record.bytes = outcome.bytes
            record.requestedURL = outcome.requestedURL == planned.url ? nil : outcome.requestedURL
            record.responseHeaders = outcome.headers
            record.redirects = outcome.redirects
            let again = !outcome.delivered && attempt <= policy.retries && policy.retries(outcome)
            record.isFinalAttempt = !again
            if again {
                await onRecord(record)
                try? await ContinuousClock().sleep(for: backoff)
                backoff *= 2
            } else {
                await completed(id, record)
                return
            }
        }
    }

    private func completed(_ id: Int, _ record: BeaconRecord) async {
        guard inFlight.removeValue(forKey: id) != nil else { return }
        await onRecord(record)
    }

    private func acquire() async {
        if running < policy.maxConcurrent {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }

    /// Requests not answered yet.
    public var pending: Int { inFlight.count }

    /// Waits until every request has its final answer or `limit` has passed on the wall clock; the ones still open
    /// are cancelled and recorded: an attempt on the wire as `unansweredError` (its attempt number and `sentAt`
    /// kept), a beacon that never went out (waiting for a slot or a retry) as `notSentError` without `sentAt`.
    public func finish(waitingAtMost limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while !inFlight.isEmpty, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(2))
        }
        // Stop new sends first, then cancel; each flight is read as it is when its turn comes (an earlier record's
        // `onRecord` may let other tasks run on this actor in between).
        closing = true
        let ids = inFlight.keys.sorted()
        for id in ids { inFlight[id]?.task?.cancel() }
        for id in ids {
            guard let flight = inFlight.removeValue(forKey: id) else { continue }
            var record: BeaconRecord
            if let current = flight.current {
                record = current
                record.error = Self.unansweredError
            } else {
                record = flight.planned
                record.attempt = flight.nextAttempt
                record.sentAt = nil
                record.error = Self.notSentError
            }
            record.dryRun = false
            record.isFinalAttempt = true
            await onRecord(record)
        }
    }
}
