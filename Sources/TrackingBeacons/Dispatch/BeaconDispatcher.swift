/// Sends tracking requests without ever holding up playback: each one is handed to its own task, its record is
/// reported when the answer comes, and `finish(waitingAtMost:)` waits for the stragglers at the end of a session.
/// With no transport (`--dry-run`) each request is recorded as planned and nothing is sent.
public actor BeaconDispatcher {
    private let transport: (any BeaconTransport)?
    private let timeout: Duration
    private let onRecord: @Sendable (BeaconRecord) async -> Void
    private var inFlight: [Int: (record: BeaconRecord, task: Task<Void, Never>)] = [:]
    private var nextID = 0

    /// - Parameters:
    ///   - transport: the real sender, or nil for a dry run.
    ///   - timeout: per request. 5 s: IMA's HTML5 SDK gives a whole ad request 5 s; a pixel needs less.
    ///   - onRecord: called once per request with its final record (in completion order).
    public init(transport: (any BeaconTransport)?, timeout: Duration = .seconds(5), onRecord: @escaping @Sendable (BeaconRecord) async -> Void) {
        self.transport = transport
        self.timeout = timeout
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
        let timeout = self.timeout
        let task = Task {
            let outcome = await transport.send(planned.url, timeout: timeout)
            var record = planned
            record.dryRun = false
            record.status = outcome.status
            record.error = outcome.error ?? (outcome.delivered ? nil : outcome.status.map { "HTTP \($0)" })
            record.latency = outcome.latency
            record.bytes = outcome.bytes
            await self.completed(id, record)
        }
        inFlight[id] = (planned, task)
    }

    private func completed(_ id: Int, _ record: BeaconRecord) async {
        guard inFlight.removeValue(forKey: id) != nil else { return }
        await onRecord(record)
    }

    /// Waits until every request has its answer or `limit` has passed on the wall clock; the ones still open are
    /// cancelled and recorded with the error "unanswered at session end".
    public func finish(waitingAtMost limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while !inFlight.isEmpty, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(5))
        }
        for (id, entry) in inFlight.sorted(by: { $0.key < $1.key }) {
            entry.task.cancel()
            inFlight[id] = nil
            var record = entry.record
            record.dryRun = false
            record.error = "unanswered at session end"
            await onRecord(record)
        }
    }
}
