extension FleetThreshold {
    /// What a threshold judges: a report's figures at the end, or a running fleet's so far (`FleetTally.figures`).
    struct Figures: Sendable {
        /// Each tracking URL's counts (a running fleet's `expected` is 0: the oracle predicts at the end).
        var beacons: [FleetReport.Beacon]
        /// Beacon attempts that failed, over every reason.
        var failures: Int
        var networks: [String: FleetReport.NetworkPopulation]?
        /// Beacon latency in seconds by percentile (`p50`, `p90`, `p99`, `max`); empty when none was recorded. A
        /// running fleet's has only `max`.
        var latency: [String: Double]

        init(beacons: [FleetReport.Beacon], failures: Int, networks: [String: FleetReport.NetworkPopulation]?, latency: [String: Double]) {
            (self.beacons, self.failures, self.networks, self.latency) = (beacons, failures, networks, latency)
        }

        init(_ report: FleetReport) {
            let latency = report.performance.latency
            self.init(beacons: report.population.beacons, failures: report.population.failures.values.reduce(0, +),
                      networks: report.population.networks,
                      latency: latency.count > 0 ? ["p50": latency.p50, "p90": latency.p90, "p99": latency.p99, "max": latency.max] : [:])
        }
    }

    /// Whether a breach seen while the fleet runs is one the rest of the run cannot undo, so `--abort-on-fail` may stop
    /// at it: a count that only grows (sent, delivered, received, failures, a network's counts) or the latency's
    /// maximum, held under a bound (`<`, `<=`, or `==` once past it). A ratio, a percentile, a lower bound or
    /// `expected` (the oracle's, known at the end) can still turn: judged on the final report only.
    public var judgedWhileRunning: Bool {
        switch metric {
        case let .count(name): name != "expected" && [.lt, .le, .eq].contains(comparison)
        case let .latency(percentile): percentile == "max" && [.lt, .le].contains(comparison)
        case .ratio: false
        }
    }

    /// The verdict when `figures`, a running fleet's so far, already breach this threshold for good; nil while it may
    /// still hold (or it is judged at the end only).
    func finalBreach(_ figures: Figures) -> Verdict? {
        guard judgedWhileRunning else { return nil }
        let verdict = evaluate(figures)
        // Nothing in its scope yet (no such network so far) is no breach; below an `==` the count may still reach it.
        guard let actual = verdict.actual, !verdict.passed, comparison != .eq || actual > value else { return nil }
        return verdict
    }
}
