import Histogram
import PlayerEngine
import TrackingBeacons

extension FleetTally {
    /// What the sessions and the dispatcher add to: each addition is a few counter updates under a lock, so sessions
    /// on every core add at once without queueing on an actor (one hop per event and per beacon made a fleet's
    /// sessions take turns on a single core). Counts only: who may start and send is the `Admission` beside them.
    struct Counts: Sendable, Equatable {
        var sent: [Int]
        var delivered: [Int]
        var failures: [String: Int] = [:]
        var latency = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        /// The same latencies by the second of the run they were answered in.
        var latencyBySecond = FleetLatencyTimeline.Seconds()
        var scenarios: [String: Int] = [:]
        var endings: [String: Int] = [:]
        var events: [PlaybackEvent.Name: Int] = [:]
        var rewardsGranted = 0
        var rewardsForfeited = 0
        var sessionsDone = 0
        /// Sessions that took an index and began (live metrics: started less done are playing).
        var sessionsStarted = 0
        var beaconsAnswered = 0
        var beaconsSent = 0
        /// Per simulated network (`--network-mix`): how its viewers did.
        var networks: [String: FleetReport.NetworkPopulation] = [:]
        /// Server-side mode: each stitched event, fired, unseen and its lead.
        var stitched: [String: FleetStitched] = [:]

        /// No counts yet, for `rows` tracking URLs.
        init(rows: Int) {
            sent = Array(repeating: 0, count: rows)
            delivered = Array(repeating: 0, count: rows)
        }

        /// `events` by name, as the report writes them.
        var eventsByName: [String: Int] { Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, $0.value) }) }
    }
}

extension FleetTally.Counts {
    /// A beacon sent, at `row` (nil: a URL not listed).
    mutating func countSent(row index: Int?, network: String? = nil) {
        beaconsSent += 1
        if let index { sent[index] += 1 }
        if let network { networks[network, default: FleetReport.NetworkPopulation()].beaconsSent += 1 }
    }

    /// One attempt's record, at `row` (nil: a URL not listed). (Its request at the sink is matched by the fleet's
    /// `FleetReconciler`, not kept here.)
    /// `second`: of the run, when the answer came (nil: not kept by second).
    mutating func count(_ record: BeaconRecord, row index: Int?, second: Int? = nil, network: String? = nil) {
        guard record.isFinalAttempt else { return }
        beaconsAnswered += 1
        if record.dryRun {
            // Nothing was sent: nothing to wait for.
        } else if record.delivered {
            if let index { delivered[index] += 1 }
            if let network { networks[network, default: FleetReport.NetworkPopulation()].beaconsDelivered += 1 }
        } else {
            if let network { networks[network, default: FleetReport.NetworkPopulation()].beaconsFailed += 1 }
            failures[(record.failure ?? record.status.map { .httpStatus($0) } ?? .other("failed")).description, default: 0] += 1
        }
        if let latency = record.latency, record.wasSent {
            let (seconds, attoseconds) = latency.components
            let microseconds = UInt64(max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            _ = self.latency.record(microseconds)
            if let second { latencyBySecond.record(second: second, microseconds: microseconds) }
        }
    }

    /// A session that ended: its scenario, its network's name, and its report (nil: it never played).
    mutating func count(_ scenario: FleetScenario, network: String?, report: PlaybackReport?) {
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
}

extension FleetTally.Counts {
    /// Adds another hold's counts of the same fleet (the same tracking URLs): rows element by element, dictionaries by
    /// key, histograms bucket by bucket, so the holds' counts merged are the counts one shared tally would have kept
    /// (as wrk adds its threads' statistics at the end).
    mutating func merge(_ other: Self) {
        precondition(sent.count == other.sent.count && delivered.count == other.delivered.count, "counts of another fleet's tracking URLs")
        for row in sent.indices { sent[row] += other.sent[row] }
        for row in delivered.indices { delivered[row] += other.delivered[row] }
        failures.merge(other.failures, uniquingKeysWith: +)
        latency.add(other.latency)
        latencyBySecond.merge(other.latencyBySecond)
        scenarios.merge(other.scenarios, uniquingKeysWith: +)
        endings.merge(other.endings, uniquingKeysWith: +)
        events.merge(other.events, uniquingKeysWith: +)
        rewardsGranted += other.rewardsGranted
        rewardsForfeited += other.rewardsForfeited
        sessionsDone += other.sessionsDone
        sessionsStarted += other.sessionsStarted
        beaconsAnswered += other.beaconsAnswered
        beaconsSent += other.beaconsSent
        networks.merge(other.networks, uniquingKeysWith: +)
        stitched.merge(other.stitched) { mine, theirs in
            var sum = mine
            sum.add(theirs)
            return sum
        }
    }

    /// These counts and `other`'s added (`merge(_:)`).
    func merged(with other: Self) -> Self {
        var sum = self
        sum.merge(other)
        return sum
    }
}
