import Histogram
import PlayerEngine
import TrackingBeacons

/// A fleet's counts, kept as the sessions and their beacons report, never the records themselves (a 10,000-session
/// fleet sends ~100,000 beacons): per tracking URL sent and delivered, failures by reason, latency in an
/// HdrHistogram, and, for reconciliation with the sink, how many requests went out for each request target.
///
/// It also holds the fleet back: a session that wants to send a beacon while `outstanding` beacons are not yet
/// answered waits (on the virtual clock nothing moves while it waits), so queued beacons cannot pile up in memory.
actor FleetTally {
    /// Index of each tracking URL (`event`, `source`, `template`) in the report's list.
    private let keys: [String: Int]
    private(set) var sent: [Int]
    private(set) var delivered: [Int]
    private(set) var failures: [String: Int] = [:]
    /// Requests put on the wire, by request target (path and query as the sink will see it), per tracking URL.
    private(set) var requestsByTarget: [String: [Int: Int]] = [:]
    private(set) var latency = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    private(set) var scenarios: [String: Int] = [:]
    private(set) var endings: [String: Int] = [:]
    private(set) var events: [String: Int] = [:]
    private(set) var rewardsGranted = 0
    private(set) var rewardsForfeited = 0
    private(set) var sessionsDone = 0
    private(set) var beaconsAnswered = 0
    private(set) var beaconsSent = 0

    private let limit: Int
    private var outstanding = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private let targetOf: @Sendable (String) -> String?

    /// - Parameters:
    ///   - keys: the tracking URLs, in report order, as `event␟source␟template`.
    ///   - limit: beacons sent and not yet answered before sessions wait.
    ///   - targetOf: the request target a URL's request shows at the sink, or nil when it does not go to the sink.
    init(keys: [String], limit: Int, targetOf: @escaping @Sendable (String) -> String?) {
        var index: [String: Int] = [:]
        for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
        self.keys = index
        sent = Array(repeating: 0, count: keys.count)
        delivered = Array(repeating: 0, count: keys.count)
        self.limit = max(1, limit)
        self.targetOf = targetOf
    }

    /// `ad`: the pod place of the ad (nil for a single ad): a wrapper's URL fired by each ad of a pod is counted per ad.
    static func key(event: String, source: String, template: String, ad: Int? = nil) -> String {
        event + "\u{1F}" + source + "\u{1F}" + template + (ad.map { "\u{1F}\($0)" } ?? "")
    }

    /// Waits until a beacon may be sent, then counts it as sent and outstanding.
    func admit(_ record: PlannedBeacon) async {
        while outstanding >= limit { await withCheckedContinuation { waiting.append($0) } }
        outstanding += 1
        beaconsSent += 1
        if let index = keys[Self.key(event: record.event, source: record.source, template: record.template, ad: record.ad)] { sent[index] += 1 }
    }

    /// One attempt's record from the dispatcher.
    func record(_ record: BeaconRecord) {
        let index = keys[Self.key(event: record.event, source: record.source, template: record.template, ad: record.planned.ad)]
        if record.wasSent, let index, let target = targetOf(record.url) {
            requestsByTarget[target, default: [:]][index, default: 0] += 1
        }
        guard record.isFinalAttempt else { return }
        beaconsAnswered += 1
        if record.dryRun {
            // Nothing was sent: nothing to wait for.
        } else if record.delivered {
            if let index { delivered[index] += 1 }
        } else {
            failures[(record.failure ?? record.status.map { .httpStatus($0) } ?? .other("failed")).description, default: 0] += 1
        }
        if let latency = record.latency, record.wasSent {
            let (seconds, attoseconds) = latency.components
            _ = self.latency.record(UInt64(max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
        }
        outstanding -= 1
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }

    func event(_ event: PlaybackEvent) {
        events[event.name.rawValue, default: 0] += 1
    }

    /// Per simulated network (`--network-mix`): how its viewers did.
    private(set) var networks: [String: FleetReport.NetworkPopulation] = [:]

    func finished(_ scenario: FleetScenario, network: String? = nil, report: PlaybackReport?) {
        if let network {
            var population = networks[network] ?? FleetReport.NetworkPopulation()
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
            networks[network] = population
        }
        scenarios[scenario.kind.rawValue, default: 0] += 1
        endings[report?.ending?.rawValue ?? "none", default: 0] += 1
        if report?.rewardGranted == true { rewardsGranted += 1 }
        if report.map({ $0.events.contains(.rewardForfeited) }) == true { rewardsForfeited += 1 }
        sessionsDone += 1
    }

    /// Matches the sink's hits to the requests sent: per tracking URL how many arrived, and how many hits nothing
    /// accounts for.
    func received(hits: [String]) -> (perKey: [Int], unexpected: Int) {
        var left = requestsByTarget
        var perKey = Array(repeating: 0, count: sent.count)
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
