import Primitives
import Foundation
import Histogram

extension FleetReport {
    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    }

    /// Percentiles in seconds (the histogram holds microseconds), and the recorded values so another report's can be
    /// added exactly.
    static func latency(of histogram: Histogram<UInt64>) -> Latency {
        func seconds(_ percentile: Double) -> Double { histogram.totalCount == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1_000_000 }
        let pairs = histogram.recordedValues().map { [$0.value, UInt64($0.count)] }
        return Latency(count: Int(histogram.totalCount), p50: seconds(50), p90: seconds(90), p99: seconds(99),
                       max: histogram.totalCount == 0 ? 0 : Double(histogram.max) / 1_000_000, histogram: pairs)
    }

    /// The histogram a report's latency was taken from.
    static func histogram(of latency: Latency) -> Histogram<UInt64> {
        var histogram = emptyHistogram()
        for pair in latency.histogram where pair.count == 2 { _ = histogram.record(pair[0], count: pair[1]) }
        return histogram
    }

    /// This process's peak resident memory so far, MiB (Linux reports `ru_maxrss` in KiB).
    static func peakRSSMiB() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024
    }

    /// Why shard reports could not be merged (another fleet's shard, a shard given twice, …); `description` says which.
    public struct MergeError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Shard reports of one fleet combined into the report of the whole: population counts added, latency
    /// histograms added, wall time and memory the largest shard's (shards run side by side). The shards must come
    /// from the same fleet (tag, sessions, seed, mix, media, shard count) and none may be given twice; with all of
    /// them, the population equals an unsharded run's.
    public static func merge(_ reports: [FleetReport]) throws(MergeError) -> FleetReport {
        guard var merged = reports.first else { throw MergeError(description: "no reports to merge") }
        for report in reports.dropFirst() {
            var fleet = report.fleet, mine = merged.fleet
            fleet.shards = []
            mine.shards = []
            fleet.missingShards = nil
            mine.missingShards = nil
            guard fleet == mine else {
                throw MergeError(description: "the reports are not shards of one fleet (tag, sessions, seed, mix, media and shard count must agree)")
            }
            let twice = Set(report.fleet.shards).intersection(merged.fleet.shards)
            guard twice.isEmpty else { throw MergeError(description: "shard \(twice.sorted().map(String.init).joined(separator: ", ")) is given twice") }
            guard report.population.beacons.map(\.template) == merged.population.beacons.map(\.template),
                  report.population.beacons.map(\.ad) == merged.population.beacons.map(\.ad) else {
                throw MergeError(description: "the reports list different tracking URLs")
            }
            merged.fleet.shards = (merged.fleet.shards + report.fleet.shards).sorted()
            merged.warnings += report.warnings.filter { !merged.warnings.contains($0) }
            merged.population = merge(merged.population, report.population)
            var histogram = histogram(of: merged.performance.latency)
            histogram.add(Self.histogram(of: report.performance.latency))
            // Sessions played (all of them, unless a shard was stopped).
            let sessions = merged.population.scenarios.values.reduce(0, +)
            merged.aborted = merged.aborted ?? report.aborted
            let seconds = max(merged.performance.seconds, report.performance.seconds)
            let sent = merged.population.beacons.reduce(0) { $0 + $1.sent }
            merged.performance = Performance(
                seconds: seconds, decodeSeconds: max(merged.performance.decodeSeconds, report.performance.decodeSeconds),
                sessionsPerSecond: seconds > 0 ? Double(sessions) / seconds : 0, beaconsPerSecond: seconds > 0 ? Double(sent) / seconds : 0,
                latency: latency(of: histogram), peakRSSMiB: max(merged.performance.peakRSSMiB, report.performance.peakRSSMiB),
                latencyBySecond: FleetLatencyTimeline.sum(merged.performance.latencyBySecond, report.performance.latencyBySecond))
        }
        let deviceFields = reports.compactMap(\.checks.deviceFields)
        merged.checks = checks(of: merged.population)
        merged.checks.deviceFields = deviceFields.isEmpty ? nil : deviceFields.allSatisfy { $0 }
        let missing = Set(0..<merged.fleet.shardCount).subtracting(merged.fleet.shards).sorted()
        merged.fleet.missingShards = missing.isEmpty ? nil : missing
        return merged
    }

    static func merge(_ a: Population, _ b: Population) -> Population {
        func add(_ x: [String: Int], _ y: [String: Int]) -> [String: Int] { x.merging(y, uniquingKeysWith: +) }
        var beacons = a.beacons
        for index in beacons.indices {
            let other = b.beacons[index]
            beacons[index].expected += other.expected
            beacons[index].sent += other.sent
            beacons[index].delivered += other.delivered
            if let received = other.received { beacons[index].received = (beacons[index].received ?? 0) + received }
        }
        let unexpected: Int? = (a.unexpected == nil && b.unexpected == nil) ? nil : (a.unexpected ?? 0) + (b.unexpected ?? 0)
        var networks: [String: NetworkPopulation]?
        if a.networks != nil || b.networks != nil {
            networks = (a.networks ?? [:]).merging(b.networks ?? [:], uniquingKeysWith: +)
        }
        var stitched: [String: FleetStitched]?
        if a.serverSide != nil || b.serverSide != nil {
            stitched = (a.serverSide ?? [:]).merging(b.serverSide ?? [:]) { x, y in
                var sum = x
                sum.add(y)
                return sum
            }
        }
        return Population(scenarios: add(a.scenarios, b.scenarios), endings: add(a.endings, b.endings),
                          rewardsGranted: a.rewardsGranted + b.rewardsGranted, rewardsForfeited: a.rewardsForfeited + b.rewardsForfeited,
                          events: add(a.events, b.events), beacons: beacons, failures: add(a.failures, b.failures), unexpected: unexpected,
                          networks: networks, viewability: FleetReport.Viewability.of(events: add(a.events, b.events)), serverSide: stitched)
    }
}

extension FleetReport.NetworkPopulation {
    /// Adds another count of the same network's viewers (another shard's, another hold's): every count summed,
    /// `reached` by milestone.
    mutating func add(_ other: Self) {
        sessions += other.sessions
        failedToLoad += other.failedToLoad
        sessionsThatStalled += other.sessionsThatStalled
        rebuffers += other.rebuffers
        stalledSeconds += other.stalledSeconds
        reached.merge(other.reached, uniquingKeysWith: +)
        (beaconsSent, beaconsDelivered, beaconsFailed) = (beaconsSent + other.beaconsSent, beaconsDelivered + other.beaconsDelivered,
                                                          beaconsFailed + other.beaconsFailed)
    }

    /// Two counts of the same network's viewers added (`add`): how the report, the holds and live metrics merge them.
    static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.add(rhs)
        return sum
    }
}
