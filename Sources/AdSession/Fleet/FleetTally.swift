import Histogram
import Primitives
import PlayerEngine
import TrackingBeacons

/// A fleet's counts, kept as the sessions and their beacons report, never the records themselves (a 10,000-session
/// fleet sends ~100,000 beacons): per tracking URL sent and delivered, failures by reason, latency in an
/// HdrHistogram, and, for reconciliation with the sink, how many requests went out for each request target.
///
/// It also holds the fleet back, so queued beacons cannot pile up in memory. The sessions send through a few
/// dispatchers (one per event loop), each with its share of `limit` (a `Hold`): a session takes room in its hold for
/// the beacons a session sends on average, and starts only when that room fits (`admitSession`); its beacons use the
/// room, and a beacon past it counts one more, waiting while twice the share is outstanding (on the virtual clock
/// nothing moves while it waits). A session's beacons come in a burst on the virtual clock: held back at its start,
/// a session waits once, not once per beacon (each wait a continuation, and its resumption a job for its event loop).
/// An answer frees room in its own dispatcher's hold and lets that hold's sessions go, so each loop keeps its own
/// connections busy (one shared bound let one loop's sessions take every turn, and the other loop's connections
/// went idle).
final class FleetTally: Sendable {
    /// What the sessions and the dispatcher add to, behind one lock: each addition is a few counter updates, so
    /// sessions on every core add at once without queueing on an actor (one hop per event and per beacon made a
    /// fleet's sessions take turns on a single core).
    struct Counts: Sendable {
        var sent: [Int]
        var delivered: [Int]
        var failures: [String: Int] = [:]
        /// Requests put on the wire, by request target (path and query as the sink will see it), per tracking URL.
        var requestsByTarget: [String: [Int: Int]] = [:]
        var latency = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        var scenarios: [String: Int] = [:]
        var endings: [String: Int] = [:]
        var events: [PlaybackEvent.Name: Int] = [:]
        var rewardsGranted = 0
        var rewardsForfeited = 0
        var sessionsDone = 0
        var beaconsAnswered = 0
        var beaconsSent = 0
        /// Per simulated network (`--network-mix`): how its viewers did.
        var networks: [String: FleetReport.NetworkPopulation] = [:]
        /// Each dispatcher's hold.
        var holds: [Hold]
        /// Sessions started, for the beacons a session sends on average (`room(limit:)`).
        var sessionsStarted = 0
        /// The fleet was stopped (a signal): nothing waits for room any more (`stop()`).
        var stopped = false

        /// The room a session takes when it starts: the beacons a session has sent on average so far (at least 1,
        /// at most `limit`).
        func room(limit: Int) -> Int { min(limit, max(1, sessionsStarted == 0 ? 1 : beaconsSent / sessionsStarted)) }

        /// Beacons outstanding over every hold.
        var outstanding: Int { holds.reduce(0) { $0 + $1.outstanding } }

        /// `events` by name, as the report writes them.
        var eventsByName: [String: Int] { Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, $0.value) }) }
    }

    /// One dispatcher's share of the bound: its beacons outstanding (sent or queued, not yet answered, and the room
    /// its sessions took and have not used), and who waits on it.
    struct Hold: Sendable {
        var outstanding = 0
        /// Sessions waiting to start (resumed with the room taken for them), first come first served.
        var sessionsWaiting: [CheckedContinuation<Int, Never>] = []
        /// Beacons waiting past the ceiling.
        var beaconsWaiting: [CheckedContinuation<Void, Never>] = []
    }

    /// The room a session holds in its dispatcher's hold: counted as outstanding when it starts (`admitSession`),
    /// taken by its beacons as they are sent, and what is left given back when it ends (`endSession`). One
    /// session's: its task alone touches it.
    final class Room {
        let hold: Int
        fileprivate(set) var left: Int
        init(hold: Int, left: Int) { (self.hold, self.left) = (hold, left) }
    }

    /// Index of each tracking URL (`event`, `source`, `template`) in the report's list.
    private let keys: [Key: Int]
    private let counts: Locked<Counts>
    /// Each hold's bound on its sessions' room, and (twice it) on its beacons.
    private let limit: Int
    private let ceiling: Int
    private let targetOf: @Sendable (String) -> String?

    /// - Parameters:
    ///   - keys: the tracking URLs, in report order (`key(event:source:template:ad:)`).
    ///   - limit: beacons outstanding (sent or queued, not yet answered) over the fleet before sessions wait to
    ///     start; shared among `holds` (one per dispatcher), and twice each share before a beacon waits.
    ///   - targetOf: the request target a URL's request shows at the sink, or nil when it does not go to the sink.
    init(keys: [Key], limit: Int, holds: Int = 1, targetOf: @escaping @Sendable (String) -> String?) {
        var index: [Key: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
        self.keys = index
        let holds = max(1, holds)
        counts = Locked(Counts(sent: Array(repeating: 0, count: keys.count), delivered: Array(repeating: 0, count: keys.count),
                               holds: Array(repeating: Hold(), count: holds)))
        self.limit = (max(1, limit) + holds - 1) / holds
        ceiling = 2 * self.limit
        self.targetOf = targetOf
    }

    /// A copy of the counts so far, for the report once the sessions are done. (Taken while they run, it would make
    /// the next beacon's count copy every dictionary: progress reads `progress`.)
    var snapshot: Counts { counts.withLock { $0 } }

    /// Sessions done, beacons sent and answered so far.
    var progress: (sessionsDone: Int, beaconsSent: Int, beaconsAnswered: Int) {
        counts.withLock { ($0.sessionsDone, $0.beaconsSent, $0.beaconsAnswered) }
    }

    /// A tracking URL as the report counts it: its event, source and template, and the pod place of the ad (nil
    /// for a single ad: a wrapper's URL fired by each ad of a pod is counted per ad). Its parts, not one string
    /// joined from them: looked up once per beacon.
    struct Key: Hashable, Sendable {
        var event: String
        var source: String
        var template: String
        var ad: Int?

        /// Hashes the event, the template's length and the ad, not the template's bytes: a tag's tracking URLs are a
        /// few dozen, told apart by event and length (keys alike in all three are then told apart by `==`), and
        /// the template, a whole URL, hashed byte by byte cost more than the rest of the lookup, once per beacon.
        func hash(into hasher: inout Hasher) {
            hasher.combine(event)
            hasher.combine(template.utf8.count)
            hasher.combine(ad)
        }
    }

    static func key(event: String, source: String, template: String, ad: Int? = nil) -> Key {
        Key(event: event, source: source, template: template, ad: ad)
    }

    /// The row of a beacon's tracking URL in the report's list; nil for a URL not listed.
    private func row(of beacon: PlannedBeacon) -> Int? {
        keys[Self.key(event: beacon.event, source: beacon.source, template: beacon.template, ad: beacon.ad)]
    }

    /// Sessions waiting to start and beacons waiting to be sent, now, over every hold.
    var waiting: (sessions: Int, beacons: Int) {
        counts.withLock { counts in counts.holds.reduce((0, 0)) { ($0.0 + $1.sessionsWaiting.count, $0.1 + $1.beaconsWaiting.count) } }
    }

    /// Waits until a session sending through hold `hold`'s dispatcher may start, then counts room in that hold for
    /// its beacons (`Counts.room`): it starts when the room fits under the hold's bound (or nothing is outstanding
    /// there), now or when answers free it. An answer that lets a session go takes its room for it, so the session
    /// starts without looking again, and sessions start at the pace their beacons are answered.
    nonisolated(nonsending) func admitSession(hold: Int = 0) async -> Room {
        let limit = self.limit
        if let room = counts.withLock({ Self.start(&$0, hold: hold, limit: limit) }) { return Room(hold: hold, left: room) }
        let room = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let room: Int? = counts.withLock { counts in
                if let room = Self.start(&counts, hold: hold, limit: limit) { return room }
                counts.holds[hold].sessionsWaiting.append(continuation)
                return nil
            }
            if let room { continuation.resume(returning: room) }
        }
        return Room(hold: hold, left: room)
    }

    /// A session of `hold` starting now, if its room fits: the room, counted.
    private static func start(_ counts: inout Counts, hold: Int, limit: Int) -> Int? {
        // Stopped: no session starts; the caller sees the cancellation and ends its worker.
        if counts.stopped { return 0 }
        let room = counts.room(limit: limit)
        guard counts.holds[hold].outstanding == 0 || counts.holds[hold].outstanding + room <= limit else { return nil }
        counts.holds[hold].outstanding += room
        counts.sessionsStarted += 1
        return room
    }

    /// A session ended: the room its beacons did not take is given back (and may let others go).
    func endSession(_ room: Room) {
        let left = room.left
        room.left = 0
        guard left > 0 else { return }
        var woken = Woken()
        counts.withLock { counts in
            counts.holds[room.hold].outstanding -= left
            letGo(&counts, hold: room.hold, into: &woken)
        }
        woken.resume()
    }

    /// Counts a beacon as sent: in its session's room while there is some; past it (or with no room: hold 0), as one
    /// more outstanding, which waits while the hold's ceiling is. Returns its row, for its records to be counted by
    /// (their `countedAt`; the beacon is not copied to carry it).
    nonisolated(nonsending) func admit(_ beacon: PlannedBeacon, in room: Room? = nil) async -> Int? {
        let index = row(of: beacon)
        let ceiling = self.ceiling, hold = room?.hold ?? 0
        let roomy = (room?.left ?? 0) > 0
        if roomy { room!.left -= 1 }
        func take(_ counts: inout Counts) -> Bool {
            guard roomy || counts.stopped || counts.holds[hold].outstanding < ceiling else { return false }
            if !roomy { counts.holds[hold].outstanding += 1 }
            counts.beaconsSent += 1
            if let index { counts.sent[index] += 1 }
            return true
        }
        while !counts.withLock(take) {
            await withCheckedContinuation { continuation in
                // Freed between the check and here: go round again at once; else wait for an answer.
                let freed = counts.withLock { counts in
                    guard !counts.stopped, counts.holds[hold].outstanding >= ceiling else { return true }
                    counts.holds[hold].beaconsWaiting.append(continuation)
                    return false
                }
                if freed { continuation.resume() }
            }
        }
        return index
    }

    /// Stops the fleet's waits (a signal): sessions waiting to start are let go without room (none starts), beacons
    /// waiting past the ceiling are let through to the dispatcher, whose drain the signal has cut to about 2 s. Without
    /// it, workers waited for room until hung beacons timed out.
    func stop() {
        let (sessions, beacons) = counts.withLock { counts in
            counts.stopped = true
            var sessions: [CheckedContinuation<Int, Never>] = [], beacons: [CheckedContinuation<Void, Never>] = []
            for hold in counts.holds.indices {
                sessions += counts.holds[hold].sessionsWaiting
                beacons += counts.holds[hold].beaconsWaiting
                counts.holds[hold].sessionsWaiting.removeAll()
                counts.holds[hold].beaconsWaiting.removeAll()
            }
            return (sessions, beacons)
        }
        for session in sessions { session.resume(returning: 0) }
        for beacon in beacons { beacon.resume() }
    }

    /// Waiters let go under the lock, resumed after it.
    private struct Woken {
        var beacon: CheckedContinuation<Void, Never>?
        var sessions: [(CheckedContinuation<Int, Never>, Int)] = []

        func resume() {
            beacon?.resume()
            for (session, room) in sessions { session.resume(returning: room) }
        }
    }

    /// After beacons of `hold` stopped being outstanding: a beacon of a session under way first (below the ceiling),
    /// then as many sessions as have room under the bound, each its room taken.
    private func letGo(_ counts: inout Counts, hold: Int, into woken: inout Woken) {
        if counts.holds[hold].outstanding < ceiling, !counts.holds[hold].beaconsWaiting.isEmpty {
            woken.beacon = counts.holds[hold].beaconsWaiting.removeFirst()
        }
        while !counts.holds[hold].sessionsWaiting.isEmpty, let room = Self.start(&counts, hold: hold, limit: limit) {
            woken.sessions.append((counts.holds[hold].sessionsWaiting.removeFirst(), room))
        }
    }

    /// One attempt's record from the dispatcher of hold `hold`.
    func record(_ record: BeaconRecord, hold: Int = 0) {
        let index = record.planned.countedAt ?? row(of: record.planned)
        let target = record.wasSent && index != nil ? targetOf(record.url) : nil
        var woken = Woken()
        counts.withLock { counts in
            if let index, let target {
                counts.requestsByTarget[target, default: [:]][index, default: 0] += 1
            }
            guard record.isFinalAttempt else { return }
            counts.beaconsAnswered += 1
            if record.dryRun {
                // Nothing was sent: nothing to wait for.
            } else if record.delivered {
                if let index { counts.delivered[index] += 1 }
            } else {
                counts.failures[(record.failure ?? record.status.map { .httpStatus($0) } ?? .other("failed")).description, default: 0] += 1
            }
            if let latency = record.latency, record.wasSent {
                let (seconds, attoseconds) = latency.components
                _ = counts.latency.record(UInt64(max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
            }
            counts.holds[hold].outstanding -= 1
            letGo(&counts, hold: hold, into: &woken)
        }
        woken.resume()
    }

    func event(_ event: PlaybackEvent) {
        counts.withLock { $0.events[event.name, default: 0] += 1 }
    }

    func finished(_ scenario: FleetScenario, network: String? = nil, report: PlaybackReport?) {
        counts.withLock { counts in
            if let network {
                var population = counts.networks[network] ?? FleetReport.NetworkPopulation()
                population.sessions += 1
                if let report {
                    population.rebuffers += report.rebuffers
                    population.stalledSeconds += report.rebufferTime.seconds
                    if report.rebuffers > 0 { population.sessionsThatStalled += 1 }
                    for name in FleetReport.NetworkPopulation.milestones where report.events.contains(name) {
                        population.reached[name.rawValue, default: 0] += 1
                    }
                } else {
                    population.failedToLoad += 1
                }
                counts.networks[network] = population
            }
            counts.scenarios[scenario.kind.rawValue, default: 0] += 1
            counts.endings[report?.ending?.rawValue ?? "none", default: 0] += 1
            if report?.rewardGranted == true { counts.rewardsGranted += 1 }
            if report.map({ $0.events.contains(.rewardForfeited) }) == true { counts.rewardsForfeited += 1 }
            counts.sessionsDone += 1
        }
    }

    /// Matches the sink's hits to the requests sent: per tracking URL how many arrived, and how many hits nothing
    /// accounts for.
    func received(hits: [String]) -> (perKey: [Int], unexpected: Int) {
        let counts = snapshot
        var left = counts.requestsByTarget
        var perKey = Array(repeating: 0, count: counts.sent.count)
        var unexpected = 0
        for target in hits {
            guard var counts = left[target], let (index, count) = counts.min(by: { $0.key < $1.key }) else {
                unexpected += 1
                continue
            }
            perKey[index] += 1
            counts[index] = count - 1 == 0 ? nil : count - 1
            left[target] = counts.isEmpty ? nil : counts
        }
        return (perKey, unexpected)
    }
}
