import Foundation

/// `fleet --threshold EXPR`: a condition on the fleet report's own figures, as k6's thresholds are on its metrics,
/// scoped as Gatling's assertions are (the whole fleet, one event, one tracking URL, one network profile, one ad of a
/// pod). `[SCOPE:]METRIC OP VALUE`:
///
/// - SCOPE: `event=NAME`, `url=TEXT` (tracking URLs whose template contains TEXT), `network=NAME`, `ad=N`; none: the
///   whole fleet.
/// - METRIC: a count or a ratio of two. Beacon counts (`expected`, `sent`, `delivered`, `received`) add up the
///   tracking URLs in scope; in a network's scope the counts are its sessions' (`sessions`, `failedToLoad`,
///   `stalled`, `rebuffers`, the milestones reached: `start`, `firstQuartile`, `midpoint`, `thirdQuartile`,
///   `complete`, and their beacons `sent`, `delivered` and `failures`); the whole fleet also has `failures` (beacons
///   whose last attempt failed). `latency.p50`, `.p90`, `.p99`,
///   `.max`: the fleet's beacon latency, its VALUE with a unit (`250ms`, `0.25s`).
/// - OP: `<`, `<=`, `>`, `>=`, `==`.
public struct FleetThreshold: Sendable, Equatable, CustomStringConvertible {
    public enum Scope: Sendable, Equatable {
        case fleet
        case event(String)
        case url(String)
        case network(String)
        case ad(Int)
    }

    public enum Metric: Sendable, Equatable {
        case count(String)
        case ratio(String, String)
        case latency(String)
    }

    public enum Comparison: String, Sendable, CaseIterable {
        case le = "<=", ge = ">=", eq = "==", lt = "<", gt = ">"

        func holds(_ actual: Double, _ limit: Double) -> Bool {
            switch self {
            case .lt: actual < limit
            case .le: actual <= limit
            case .gt: actual > limit
            case .ge: actual >= limit
            case .eq: actual == limit
            }
        }
    }

    /// What one threshold found: whether it held, the figure it judged (nil when its scope had nothing to judge).
    public struct Verdict: Sendable, Equatable {
        public var threshold: FleetThreshold
        public var passed: Bool
        public var actual: Double?
        public var message: String
    }

    public let text: String
    public let scope: Scope
    public let metric: Metric
    public let comparison: Comparison
    /// The limit (seconds for a latency).
    public let value: Double

    public var description: String { text }

    static let beaconCounts: Set<String> = ["expected", "sent", "delivered", "received"]
    static let networkCounts: Set<String> = ["sessions", "failedToLoad", "stalled", "rebuffers", "sent", "delivered", "failures", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
    static let percentiles: Set<String> = ["p50", "p90", "p99", "max"]

    public init(parsing text: String) throws(FleetThresholdError) {
        self.text = text
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        // A scope is `NAME=VALUE:` before the condition (a URL's text may hold `:` and `=`: the last `:` before the
        // metric ends it).
        var scope = Scope.fleet
        if let equals = rest.firstIndex(of: "="), rest[..<equals].allSatisfy(\.isLetter),
           let colon = rest.lastIndex(where: { $0 == ":" }), colon > equals {
            let name = rest[..<equals], value = String(rest[rest.index(after: equals)..<colon])
            guard !value.isEmpty else { throw FleetThresholdError("\(text): the scope \(name)= names nothing") }
            switch name {
            case "event": scope = .event(value)
            case "url": scope = .url(value)
            case "network": scope = .network(value)
            case "ad":
                guard let index = Int(value), index >= 1 else { throw FleetThresholdError("\(text): ad= takes an ad's 1-based place in the pod") }
                scope = .ad(index)
            default: throw FleetThresholdError("\(text): the scope is event=, url=, network= or ad=, not \(name)=")
            }
            rest = rest[rest.index(after: colon)...]
        }
        guard let op = Comparison.allCases.compactMap({ op in rest.range(of: op.rawValue).map { (op, $0) } }).min(by: { $0.1.lowerBound < $1.1.lowerBound }) else {
            throw FleetThresholdError("\(text): no comparison (<, <=, >, >=, ==)")
        }
        // `<=` before `<` at the same place (allCases lists the two-character ones first; min keeps the first).
        let metricText = rest[..<op.1.lowerBound].trimmingCharacters(in: .whitespaces)
        let valueText = rest[op.1.upperBound...].trimmingCharacters(in: .whitespaces)
        comparison = op.0
        (metric, value) = try Self.metric(metricText, valueText, scope: scope, text: text)
        self.scope = scope
    }

    private static func metric(_ metric: String, _ value: String, scope: Scope, text: String) throws(FleetThresholdError) -> (Metric, Double) {
        if metric.hasPrefix("latency.") {
            let percentile = String(metric.dropFirst("latency.".count))
            guard percentiles.contains(percentile) else { throw FleetThresholdError("\(text): latency.\(percentile) is not latency.p50, .p90, .p99 or .max") }
            guard scope == .fleet else { throw FleetThresholdError("\(text): latency is the whole fleet's; it takes no scope") }
            let seconds: Double? = value.hasSuffix("ms") ? Double(value.dropLast(2)).map { $0 / 1000 } : value.hasSuffix("s") ? Double(value.dropLast()) : nil
            guard let seconds, seconds.isFinite, seconds >= 0 else { throw FleetThresholdError("\(text): a latency is a time with its unit (250ms, 0.25s), not \(value)") }
            return (.latency(percentile), seconds)
        }
        guard let number = Double(value), number.isFinite else { throw FleetThresholdError("\(text): \(value) is not a number") }
        let names = metric.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let allowed: Set<String> = if case .network = scope { networkCounts } else if scope == .fleet { beaconCounts.union(["failures"]) } else { beaconCounts }
        for name in names where !allowed.contains(name) {
            throw FleetThresholdError("\(text): \(name.isEmpty ? "nothing" : name) is not a count here (\(allowed.sorted().joined(separator: ", ")))")
        }
        switch names.count {
        case 1: return (.count(names[0]), number)
        case 2: return (.ratio(names[0], names[1]), number)
        default: throw FleetThresholdError("\(text): a metric is a count or a ratio of two")
        }
    }
}
