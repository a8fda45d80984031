import Primitives
import PlayerEngine
import TrackingBeacons

/// A fleet's counts, kept as the sessions and their beacons report, never the records themselves (a 10,000-session
/// fleet sends ~100,000 beacons): per tracking URL sent and delivered, failures by reason, latency in an
/// HdrHistogram, and, for reconciliation with the sink, how many requests went out for each request target.
///
/// It also holds the fleet back, so queued beacons cannot pile up in memory: a `FleetAdmission` machine, whose
/// waiters are the sessions' and beacons' continuations.
///
/// Both are kept per hold (one per dispatcher: per event loop in a pooled fleet), as wrk counts per thread: each hold
/// has its own lock over its own counts and its own admission, so a loop's sessions and answers take only their
/// hold's lock, never another loop's, and `snapshot` adds the holds' counts together once the sessions are done.
/// Each hold's admission is a machine of its own with its share of `limit`: the room a session takes is the average of
/// its own hold's sessions, not the fleet's.
final class FleetTally: Sendable {
    /// One hold's counts and who may start and send through it, behind the hold's lock.
    struct Shard: Sendable {
        var counts: Counts
        var admission: Admission
    }

    typealias Admission = FleetAdmission<CheckedContinuation<Int, Never>, CheckedContinuation<Void, Never>>

    /// The room a session holds in its dispatcher's hold: counted as outstanding when it starts (`admitSession`),
    /// taken by its beacons as they are sent, and what is left given back when it ends (`endSession`). One
    /// session's: its task alone touches it.
    final class Room {
        let hold: Int
        fileprivate(set) var left: Int
        /// The session's index in the fleet, once it has one (its beacons' rows in `--results` name it).
        var session: Int?
        /// Its network's place in `networkNames` (`--network-mix`), once drawn.
        var network: Int?
        init(hold: Int, left: Int) { (self.hold, self.left) = (hold, left) }
    }

    /// Index of each tracking URL (`event`, `source`, `template`) in the report's list.
    private let keys: [Key: Int]
    /// The tracking URLs, in report order (as given: a key given twice is counted at its first row).
    let rowKeys: [Key]
    /// One per hold, each behind its own lock.
    let shards: [Locked<Shard>]
    private let targetOf: @Sendable (String) -> String?
    /// Where requests to the sink meet its hits (nil without an embedded sink).
    let reconciler: FleetReconciler?
    /// `--results`: where every session, event and beacon attempt is written (nil: not asked for).
    let results: FleetResults?
    /// Time since the fleet began, for latency by second (nil: not kept).
    private let elapsed: (@Sendable () -> Duration)?
    /// `--network-mix`'s profiles, by place: each beacon is also counted on its session's network.
    let networkNames: [String]
    /// Whether `admit` packs the session and network with the row (`Counted`).
    private var packs: Bool { results != nil || !networkNames.isEmpty }

    /// - Parameters:
    ///   - keys: the tracking URLs, in report order (`key(event:source:template:ad:)`).
    ///   - limit: beacons outstanding (sent or queued, not yet answered) over the fleet before sessions wait to
    ///     start; shared among `holds` (one per dispatcher), and twice each share before a beacon waits.
    ///   - holds: the dispatchers, each counted and held back on its own (`hold:` in what they and their sessions
    ///     report).
    ///   - targetOf: the request target a URL's request shows at the sink, or nil when it does not go to the sink.
    ///   - reconciler: where each request to the sink is matched with its hit as they arrive.
    init(keys: [Key], limit: Int, holds: Int = 1, reconciler: FleetReconciler? = nil, results: FleetResults? = nil,
         elapsed: (@Sendable () -> Duration)? = nil, networkNames: [String] = [], targetOf: @escaping @Sendable (String) -> String?) {
        var index: [Key: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
        self.keys = index
        rowKeys = keys
        let share = Admission.share(of: limit, among: holds)
        shards = (0..<max(1, holds)).map { _ in Locked(Shard(counts: Counts(rows: keys.count), admission: Admission(limit: share))) }
        self.targetOf = targetOf
        self.reconciler = reconciler
        self.results = results
        self.elapsed = elapsed
        self.networkNames = networkNames
    }

    /// The holds' counts so far, merged: for the report once the sessions are done, and at each scrape of live
    /// metrics (the next count after it copies the latency histogram, ~190 KB, and a few small dictionaries, once;
    /// progress, five times a second, reads `progress` instead).
    var snapshot: Counts {
        var counts = shards[0].withLock { $0.counts }
        for shard in shards.dropFirst() { counts.merge(shard.withLock { $0.counts }) }
        return counts
    }

    /// Sessions done, beacons sent and answered so far, over every hold (a few integers read from each: no copy).
    var progress: (sessionsDone: Int, beaconsSent: Int, beaconsAnswered: Int) {
        var sum = (sessionsDone: 0, beaconsSent: 0, beaconsAnswered: 0)
        for shard in shards {
            let counts = shard.withLock { ($0.counts.sessionsDone, $0.counts.beaconsSent, $0.counts.beaconsAnswered) }
            sum = (sum.sessionsDone + counts.0, sum.beaconsSent + counts.1, sum.beaconsAnswered + counts.2)
        }
        return sum
    }

    /// The events a fleet's reach is drawn from, in funnel order.
    static let reachEvents: [PlaybackEvent.Name] = [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    /// How many times each reach event (`reachEvents`) has played so far, over every hold (six integers from each).
    var reach: [Int] {
        var sum = [Int](repeating: 0, count: Self.reachEvents.count)
        for shard in shards {
            let counts = shard.withLock { held in Self.reachEvents.map { held.counts.events[$0] ?? 0 } }
            for index in sum.indices { sum[index] += counts[index] }
        }
        return sum
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
        shards.reduce((sessions: 0, beacons: 0)) { sum, shard in
            let waiting = shard.withLock { $0.admission.waiting }
            return (sum.sessions + waiting.sessions, sum.beacons + waiting.beacons)
        }
    }

    /// Beacons outstanding over every hold.
    var outstanding: Int {
        shards.reduce(0) { sum, shard in sum + shard.withLock { $0.admission.outstanding } }
    }

    /// Waits until a session sending through hold `hold`'s dispatcher may start, then counts room in that hold for
    /// its beacons (`FleetAdmission.room`): it starts when the room fits under the hold's bound (or nothing is
    /// outstanding there), now or when answers free it. An answer that lets a session go takes its room for it, so
    /// the session starts without looking again, and sessions start at the pace their beacons are answered.
    nonisolated(nonsending) func admitSession(hold: Int = 0) async -> Room {
        let shard = shards[hold]
        if let room = shard.withLock({ $0.admission.startSession() }) { return Room(hold: hold, left: room) }
        let room = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            if let now = shard.withLock({ $0.admission.wait(session: continuation) }) { Self.resume([now]) }
        }
        return Room(hold: hold, left: room)
    }

    /// A session ended: the room its beacons did not take is given back (and may let others go).
    func endSession(_ room: Room) {
        let left = room.left
        room.left = 0
        guard left > 0 else { return }
        Self.resume(shards[room.hold].withLock { $0.admission.sessionEnded(unused: left) })
    }

    /// Counts a beacon as sent, in its session's hold: in its session's room while there is some; past it (or with no
    /// room: hold 0), as one more outstanding, which waits while the hold's ceiling is. Returns its row, for its records to be counted by
    /// (the dispatcher hands it back with each: `BeaconDispatcher.submit(_:countedAt:)`).
    nonisolated(nonsending) func admit(_ beacon: PlannedBeacon, in room: Room? = nil) async -> Int? {
        let index = row(of: beacon)
        let shard = shards[room?.hold ?? 0]
        let roomy = (room?.left ?? 0) > 0
        if roomy { room!.left -= 1 }
        let network = room?.network.map { networkNames[$0] }
        func take(_ shard: inout Shard) -> Bool {
            guard shard.admission.sendBeacon(roomy: roomy) else { return false }
            shard.counts.countSent(row: index, network: network)
            return true
        }
        while !shard.withLock(take) {
            await withCheckedContinuation { continuation in
                // Freed between the check and here: go round again at once; else wait for an answer.
                if let now = shard.withLock({ $0.admission.wait(beacon: continuation) }) { Self.resume([now]) }
            }
        }
        // With --results or a network mix, the session and its network ride along with the row (`Counted`).
        if packs, let room { return Counted(row: index, network: room.network, session: room.session).packed }
        return index
    }

    /// Stops the fleet's waits (a signal), in every hold: sessions waiting to start are let go without room (none
    /// starts), beacons waiting past the ceiling are let through to the dispatcher, whose drain the signal has cut to
    /// about 2 s. Without it, workers waited for room until hung beacons timed out.
    func stop() {
        for shard in shards { Self.resume(shard.withLock { $0.admission.stop() }) }
    }

    /// Resumes the waiters the machine let go, after the lock.
    private static func resume(_ actions: [Admission.Action]) {
        for action in actions {
            switch action {
            case let .startSession(session, room): session.resume(returning: room)
            case let .sendBeacon(beacon): beacon.resume()
            }
        }
    }

    /// One attempt's record from the dispatcher of hold `hold`, counted in that hold; `countedAt`: its beacon's row,
    /// from `admit`.
    func record(_ record: BeaconRecord, countedAt: Int? = nil, hold: Int = 0) {
        var index = countedAt ?? row(of: record.planned)
        var network: String?
        if packs, let countedAt {
            let counted = Counted(packed: countedAt)
            (index, network) = (counted.row, counted.network.map { networkNames[$0] })
            results?.append(.beacon(FleetResultsBeacon(record, session: counted.session, row: index)))
        } else {
            results?.append(.beacon(FleetResultsBeacon(record, session: nil, row: index)))
        }
        if let reconciler, record.wasSent, let index, let target = targetOf(record.url) { reconciler.sent(target: target, row: index) }
        let second = record.isFinalAttempt && record.latency != nil ? elapsed.map { Int($0().seconds) } : nil
        let actions = shards[hold].withLock { shard -> [Admission.Action] in
            shard.counts.count(record, row: index, second: second, network: network)
            return record.isFinalAttempt ? shard.admission.answered() : []
        }
        Self.resume(actions)
    }

    /// A session of hold `hold` began.
    func started(hold: Int = 0) {
        shards[hold].withLock { $0.counts.sessionsStarted += 1 }
    }

    /// An event a session of hold `hold` reported, counted in that hold.
    func event(_ event: PlaybackEvent, session: Int? = nil, hold: Int = 0) {
        shards[hold].withLock { $0.counts.events[event.name, default: 0] += 1 }
        if let results, let session { results.append(.event(session: session, name: event.name.rawValue, playhead: event.playhead.seconds)) }
    }

    /// A session of hold `hold` ended, counted in that hold: its scenario, its network's name (`--network-mix`), and
    /// its report (nil: it never played).
    func finished(_ scenario: FleetScenario, network: String? = nil, report: PlaybackReport?, hold: Int = 0) {
        shards[hold].withLock { $0.counts.count(scenario, network: network, report: report) }
        results?.append(.session(FleetResultsSession(scenario, network: network, report: report)))
    }

    /// Server-side mode: a session's stitched events, as its stitcher fired them.
    func stitched(_ report: ServerSideReport, hold: Int = 0) {
        shards[hold].withLock { shard in
            for timing in report.timings { shard.counts.stitched[FleetStitched.name(timing), default: FleetStitched()].add(timing) }
        }
    }
}
