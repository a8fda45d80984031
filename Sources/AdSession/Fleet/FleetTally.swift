import Histogram
import Primitives
import PlayerEngine
import TrackingBeacons

/// A fleet's counts, kept as the sessions and their beacons report, never the records themselves (a 10,000-session
/// fleet sends ~100,000 beacons): per tracking URL sent and delivered, failures by reason, latency in an
/// HdrHistogram, and, for reconciliation with the sink, how many requests went out for each request target.
///
/// It also holds the fleet back, so queued beacons cannot pile up in memory: a session starts only while fewer than
/// `limit` beacons are outstanding (sent or queued, not yet answered), and a beacon past `ceiling` (twice that) waits
/// (on the virtual clock nothing moves while it waits). A session's beacons come in a burst on the virtual clock:
/// held back at its start, a session waits once, not once per beacon (each wait a continuation, and its resumption a
/// job for the session's event loop, often from the other loop's thread).
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
        var outstanding = 0
        /// Sessions waiting to start (`limit` reached), and beacons waiting to be sent (`ceiling` reached).
        var sessionsWaiting: [CheckedContinuation<Void, Never>] = []
        var beaconsWaiting: [CheckedContinuation<Void, Never>] = []

        /// `events` by name, as the report writes them.
        var eventsByName: [String: Int] { Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, $0.value) }) }
    }

    /// Index of each tracking URL (`event`, `source`, `template`) in the report's list.
    private let keys: [Key: Int]
    private let counts: Locked<Counts>
    private let limit: Int
    private let ceiling: Int
    private let targetOf: @Sendable (String) -> String?

    /// - Parameters:
    ///   - keys: the tracking URLs, in report order (`key(event:source:template:ad:)`).
    ///   - limit: beacons outstanding (sent or queued, not yet answered) before sessions wait to start; at twice as
    ///     many, a session's next beacon waits.
    ///   - targetOf: the request target a URL's request shows at the sink, or nil when it does not go to the sink.
    init(keys: [Key], limit: Int, targetOf: @escaping @Sendable (String) -> String?) {
        var index: [Key: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
        self.keys = index
        counts = Locked(Counts(sent: Array(repeating: 0, count: keys.count), delivered: Array(repeating: 0, count: keys.count)))
        self.limit = max(1, limit)
        ceiling = 2 * max(1, limit)
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

    /// Sessions waiting to start and beacons waiting to be sent, now.
    var waiting: (sessions: Int, beacons: Int) { counts.withLock { ($0.sessionsWaiting.count, $0.beaconsWaiting.count) } }

    /// Waits until a session may start: fewer than `limit` beacons outstanding.
    nonisolated(nonsending) func admitSession() async {
        let limit = self.limit
        while counts.withLock({ $0.outstanding >= limit }) {
            await wait(in: \.sessionsWaiting, whileOutstandingReaches: limit)
        }
    }

    /// Waits until a beacon may be sent (fewer than `ceiling` outstanding), then counts it as sent and outstanding.
    /// Returns the beacon with its row (`countedAt`), for its records to be counted by.
    nonisolated(nonsending) func admit(_ beacon: PlannedBeacon) async -> PlannedBeacon {
        var beacon = beacon
        let index = row(of: beacon)
        beacon.countedAt = index
        let ceiling = self.ceiling
        func take(_ counts: inout Counts) -> Bool {
            guard counts.outstanding < ceiling else { return false }
            counts.outstanding += 1
            counts.beaconsSent += 1
            if let index { counts.sent[index] += 1 }
            return true
        }
        while !counts.withLock(take) {
            await wait(in: \.beaconsWaiting, whileOutstandingReaches: ceiling)
        }
        return beacon
    }

    /// Waits in `queue` for an answer while `bound` beacons or more are outstanding; returns at once when fewer are
    /// (freed between the caller's check and here). The caller checks again: a wait may end with the bound reached.
    nonisolated(nonsending) private func wait(in queue: WritableKeyPath<Counts, [CheckedContinuation<Void, Never>]> & Sendable,
                                              whileOutstandingReaches bound: Int) async {
        await withCheckedContinuation { continuation in
            let freed = counts.withLock { counts in
                guard counts.outstanding >= bound else { return true }
                counts[keyPath: queue].append(continuation)
                return false
            }
            if freed { continuation.resume() }
        }
    }

    /// One attempt's record from the dispatcher.
    func record(_ record: BeaconRecord) {
        let index = record.planned.countedAt ?? row(of: record.planned)
        let target = record.wasSent && index != nil ? targetOf(record.url) : nil
        let waiter: CheckedContinuation<Void, Never>? = counts.withLock { counts in
            if let index, let target {
                counts.requestsByTarget[target, default: [:]][index, default: 0] += 1
            }
            guard record.isFinalAttempt else { return nil }
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
            counts.outstanding -= 1
            // A beacon of a session under way first, then a session to start.
            if counts.outstanding < ceiling, !counts.beaconsWaiting.isEmpty { return counts.beaconsWaiting.removeFirst() }
            if counts.outstanding < limit, !counts.sessionsWaiting.isEmpty { return counts.sessionsWaiting.removeFirst() }
            return nil
        }
        waiter?.resume()
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
