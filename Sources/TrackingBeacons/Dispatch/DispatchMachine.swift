/// The beacon dispatcher's bookkeeping as a pure machine — concurrency slots, retries with backoff, and what is
/// left unanswered or unsent when the session ends — with no clock and no I/O. Each input returns the actions to
/// execute; `BeaconDispatcher` only executes them (sends, sleeps, records). Tested with plain values.
struct DispatchMachine {
    enum Action: Equatable {
        /// Hand this record to the log (a retried attempt, a final answer, a beacon closed at the session's end), with
        /// where its caller counts the beacon (`submit(_:countedAt:now:emit:)`), if it said.
        case record(BeaconRecord, countedAt: Int?)
        /// Put this attempt on the wire.
        case send(id: Int, Attempt)
        /// Call `backoffElapsed(id:)` after this long on the network clock.
        case wait(id: Int, Duration)
        /// Stop the attempt or backoff of this beacon: the session ended.
        case cancel(id: Int)
    }

    /// An attempt to put on the wire: the URL, its number (1 for the first) and when it is sent. Not a whole record:
    /// the record is made when the attempt ends (a record made for each send was copied and dropped unread).
    struct Attempt: Equatable {
        var url: String
        var number: Int
        var sentAt: Int64
    }

    private enum State {
        case waitingForSlot
        /// Its attempt `attempt`, sent at `sentAt` (the record is made again from the planned beacon when it ends:
        /// not kept, so a beacon on the wire costs no copy of it).
        case onWire(attempt: Int, sentAt: Int64)
        /// Between attempts: the next one's number and the backoff after it.
        case backingOff(nextAttempt: Int, backoff: Duration)
    }

    private struct Flight {
        var planned: PlannedBeacon
        var state: State
        var backoff: Duration
        /// Submitted as the `order`-th (`close()` records what is left in this order).
        var order: Int
        /// Where the caller counts this beacon (a fleet tally's row), handed back with each of its records.
        var countedAt: Int?
    }

    let policy: BeaconPolicy
    /// The beacons not finished, each in a slot of `flights` (`Flights`), found by its id without hashing.
    private var flights = Flights()
    /// Beacons waiting for a slot, first come first served: `queue[queueHead...]` (taken from the front without
    /// moving the rest, which a long queue would pay per answer).
    private var queue: [Int] = []
    private var queueHead = 0
    private var nextID = 0
    private var slotsInUse = 0
    /// Set by `close()`: nothing new goes out, late answers are dropped.
    private(set) var closed = false

    init(policy: BeaconPolicy) { self.policy = policy }

    /// Beacons not finished: on the wire, backing off, or waiting for a slot.
    var pending: Int { flights.count }

    /// A new beacon. It takes a slot if one is free (sending at once), else waits for one, first come first served.
    mutating func submit(_ planned: PlannedBeacon, countedAt: Int? = nil, now: Int64) -> [Action] {
        var actions: [Action] = []
        submit(planned, countedAt: countedAt, now: now) { actions.append($0) }
        return actions
    }

    /// `submit(_:now:)`, each action handed to `emit` as it is made (no array of them: the dispatcher's way); the
    /// beacon's records come back with `countedAt`.
    mutating func submit(_ planned: PlannedBeacon, countedAt: Int? = nil, now: Int64, emit: (consuming Action) -> Void) {
        guard !closed else { return }
        var flight = Flight(planned: planned, state: .waitingForSlot, backoff: policy.backoff, order: nextID)
        flight.countedAt = countedAt
        let id = flights.insert(flight)
        nextID += 1
        if slotsInUse < policy.maxConcurrent {
            slotsInUse += 1
            emit(attempt(id, number: 1, now: now))
            return
        }
        queue.append(id)
    }

    /// The answer to beacon `id`'s attempt on the wire. A retryable failure with retries left is recorded and waits
    /// its backoff (keeping its slot); anything else is final and frees the slot for the next waiting beacon.
    mutating func answered(id: Int, _ outcome: TransportOutcome, now: Int64) -> [Action] {
        var actions: [Action] = []
        answered(id: id, outcome, now: now) { actions.append($0) }
        return actions
    }

    /// `answered(id:_:now:)`, each action handed to `emit` as it is made.
    mutating func answered(id: Int, _ outcome: TransportOutcome, now: Int64, emit: (consuming Action) -> Void) {
        // Found once and read or changed in place (`Self.inPlace`), or moved out when it ends: the flight (its planned
        // beacon) is not copied. (The values' subscript, read, copies the whole flight out.)
        guard !closed, let index = flights.slot(of: id) else { return }
        let found = Self.inPlace(&flights.slots[index]!) { flight -> (record: BeaconRecord, backoff: Duration, countedAt: Int?)? in
            guard case let .onWire(attempt, sentAt) = flight.state else { return nil }
            return (Self.record(of: flight.planned, attempt: attempt, sentAt: sentAt), flight.backoff, flight.countedAt)
        }
        guard var record = found?.record, let wait = found?.backoff else { return }
        let countedAt = found?.countedAt
        record.status = outcome.status
        record.failure = outcome.error ?? (outcome.delivered ? nil : outcome.status.map { .httpStatus($0) })
        record.latency = outcome.latency
        record.bytes = outcome.bytes
        record.requestedURL = outcome.requestedURL == record.url ? nil : outcome.requestedURL
        record.responseHeaders = outcome.headers
        record.redirects = outcome.redirects
        record.hops = outcome.hops
        let again = !outcome.delivered && record.attempt <= policy.retries && policy.retries(outcome)
        record.isFinalAttempt = !again
        if again {
            Self.inPlace(&flights.slots[index]!) { flight in
                flight.state = .backingOff(nextAttempt: record.attempt + 1, backoff: wait)
                flight.backoff *= 2
            }
            emit(.record(record, countedAt: countedAt))
            emit(.wait(id: id, wait))
            return
        }
        flights.remove(slot: index)
        emit(.record(record, countedAt: countedAt))
        if let next = freeSlot(now: now) { emit(next) }
    }

    /// Beacon `id`'s backoff is over: its next attempt goes out.
    mutating func backoffElapsed(id: Int, now: Int64) -> [Action] {
        guard !closed, let index = flights.slot(of: id), case let .backingOff(next, _) = flights.slots[index]!.state else { return [] }
        return [attempt(id, number: next, now: now)]
    }

    /// The session ends: nothing new goes out, and every beacon left is recorded as final — an attempt on the wire
    /// as `BeaconFailure.unansweredAtSessionEnd` (its attempt number and `sentAt` kept), a beacon that never went out
    /// (waiting for a slot or a retry) as `notSentBeforeSessionEnd`, without `sentAt`.
    /// - Parameter lost: the app was killed (`terminate`): every beacon left is `BeaconFailure.lost` instead.
    mutating func close(lost: Bool = false) -> [Action] {
        closed = true
        var actions: [Action] = []
        let left = flights.slots.indices.filter { flights.slots[$0] != nil }.sorted { flights.slots[$0]!.order < flights.slots[$1]!.order }
        for slot in left {
            let id = flights.ids[slot]
            guard let flight = flights.remove(slot: slot) else { continue }
            var record: BeaconRecord
            switch flight.state {
            case let .onWire(attempt, sentAt):
                record = Self.record(of: flight.planned, attempt: attempt, sentAt: sentAt)
                record.failure = .unansweredAtSessionEnd
            case .waitingForSlot, .backingOff:
                record = BeaconRecord(planned: flight.planned, dryRun: false)
                if case let .backingOff(next, _) = flight.state { record.attempt = next }
                record.failure = .notSentBeforeSessionEnd
            }
            if lost { record.failure = .lost }
            record.isFinalAttempt = true
            if case .waitingForSlot = flight.state {} else { actions.append(.cancel(id: id)) }
            actions.append(.record(record, countedAt: flight.countedAt))
        }
        queue.removeAll()
        queueHead = 0
        return actions
    }

    private mutating func attempt(_ id: Int, number: Int, now: Int64) -> Action {
        guard let index = flights.slot(of: id) else { preconditionFailure("an attempt of a beacon not in flight") }
        let url = Self.inPlace(&flights.slots[index]!) { flight in
            flight.state = .onWire(attempt: number, sentAt: now)
            return flight.planned.url
        }
        return .send(id: id, Attempt(url: url, number: number, sentAt: now))
    }

    /// `body` on a flight where it is stored (`&flights.slots[index]!`: the subscripts' `modify`, no copy).
    private static func inPlace<Result>(_ flight: inout Flight, _ body: (inout Flight) -> Result) -> Result { body(&flight) }

    /// The flights by id, in slots reused as flights end: an id is its slot in the low 24 bits and the slot's use
    /// count above them, so a late answer to an ended flight finds nothing even when its slot is in use again. (A
    /// dictionary by id hashed it four or five times a beacon.) The first ids are 0, 1, 2…: slots not yet reused.
    private struct Flights {
        static let slotBits = 24
        /// Changed in place by the machine (a flight's state), never emptied or filled but here.
        var slots: [Flight?] = []
        /// Each slot's flight's id; -1 when free.
        private(set) var ids: [Int] = []
        /// How many flights each slot has held.
        private var uses: [Int] = []
        private var free: [Int] = []
        private(set) var count = 0

        /// Stores `flight`; returns its id.
        mutating func insert(_ flight: Flight) -> Int {
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                slots[slot] = flight
            } else {
                slot = slots.count
                precondition(slot < 1 << Self.slotBits, "more beacons in flight than a dispatcher counts")
                slots.append(flight)
                ids.append(-1)
                uses.append(0)
            }
            let id = uses[slot] << Self.slotBits | slot
            ids[slot] = id
            count += 1
            return id
        }

        /// The slot of flight `id`, if it is still in flight.
        func slot(of id: Int) -> Int? {
            let slot = id & (1 << Self.slotBits - 1)
            return id >= 0 && slot < ids.count && ids[slot] == id ? slot : nil
        }

        /// Takes the flight out of `slot` (which it frees).
        @discardableResult
        mutating func remove(slot: Int) -> Flight? {
            guard let flight = slots[slot].take() else { return nil }
            ids[slot] = -1
            uses[slot] += 1
            free.append(slot)
            count -= 1
            return flight
        }
    }

    /// The record of an attempt of `planned`, before its answer.
    private static func record(of planned: PlannedBeacon, attempt: Int, sentAt: Int64) -> BeaconRecord {
        var record = BeaconRecord(planned: planned, dryRun: false)
        record.attempt = attempt
        record.sentAt = sentAt
        return record
    }

    /// The next waiting beacon's attempt, taking the slot an answer freed; nil (the slot free) when none waits.
    private mutating func freeSlot(now: Int64) -> Action? {
        while queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            if queueHead > 1024, queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            if flights.slot(of: next) != nil { return attempt(next, number: 1, now: now) }
        }
        slotsInUse -= 1
        return nil
    }
}
