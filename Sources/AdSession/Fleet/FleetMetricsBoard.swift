import Metrics
import Primitives

/// A fleet's live figures as Prometheus metrics (`vplay fleet --metrics`): read from the fleets' own tallies at each
/// scrape, so what `/metrics` shows is what the report will count. A VMAP fleet plays one fleet per break; each
/// attaches its tally here and the figures are their sums.
///
/// Names and units follow Prometheus's conventions (`vplay_fleet_` prefix, counters ending in `_total`, latency in
/// seconds); labels are bounded: a tracking URL's event and source (the tag's wrapper depth), never its URL; failure
/// reasons at most `maxReasons`, the rest `other`.
public final class FleetMetricsBoard: Sendable {
    /// A fleet playing or played: its tally, what each of its tally's rows is labelled, and how many sessions it plays.
    struct Fleet: Sendable {
        let tally: FleetTally
        let rows: [(event: String, source: String)]
        let sessions: Int
    }

    private struct State {
        var fleets: [Fleet] = []
        var finished = false
        var finalScrapes = 0
    }

    /// Failure reasons given their own label value; later ones are counted as `other`.
    static let maxReasons = 32
    /// The latency histogram's bucket bounds, in seconds (Prometheus client libraries' defaults, with 1 ms and
    /// 2.5 ms added: loopback beacons answer in a few).
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let state = Locked(State())
    private let version: String
    private let shard: String?

    /// - Parameters:
    ///   - version: vplay's version, on `vplay_fleet_info`.
    ///   - shard: `K/N` of a sharded fleet, on `vplay_fleet_info`.
    public init(version: String, shard: String? = nil) {
        (self.version, self.shard) = (version, shard)
    }

    /// A fleet starts playing (`FleetRunner`): its figures are shown from now on.
    func attach(_ fleet: Fleet) {
        state.withLock { $0.fleets.append(fleet) }
    }

    /// The run is over: the figures are final (`vplay_fleet_finished` 1), and scrapes from now on count as final.
    public func finish() {
        state.withLock { $0.finished = true }
    }

    /// Scrapes served since `finish()`: a shard that lingers waits for the first, so the final figures are scraped.
    public var finalScrapes: Int {
        state.withLock { $0.finalScrapes }
    }

    /// The exposition, at a scrape.
    public func exposition() -> String {
        let (fleets, finished) = state.withLock { state in
            if state.finished { state.finalScrapes += 1 }
            return (state.fleets, state.finished)
        }
        return PrometheusText.render(families(of: fleets, finished: finished))
    }

    /// The metric families of `fleets`, summed.
    func families(of fleets: [Fleet], finished: Bool) -> [MetricFamily] {
        var figures = FleetMetricsFigures()
        for fleet in fleets { figures.add(fleet) }
        var info = [MetricFamily.Label("version", version)]
        if let shard { info.append(.init("shard", shard)) }
        return [
            MetricFamily("vplay_fleet_info", .gauge, help: "vplay's version and the fleet's shard; always 1.", samples: [.init(info, .number(1))]),
            MetricFamily("vplay_fleet_finished", .gauge, help: "1 once the fleet has ended and these figures are final, else 0.",
                         samples: [.init([], .number(finished ? 1 : 0))]),
        ] + figures.families(maxReasons: Self.maxReasons, latencyBuckets: Self.latencyBuckets)
    }
}
