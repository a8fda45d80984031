import Histogram
import Metrics

/// The figures a scrape shows, added up over the fleets of a run (`FleetMetricsBoard`), and written as metric families.
struct FleetMetricsFigures {
    struct Labels: Hashable {
        var event: String
        var source: String
    }

    var planned = 0, started = 0, done = 0, waiting = 0, inFlight = 0
    var sent: [Labels: Int] = [:], delivered: [Labels: Int] = [:], received: [Labels: Int] = [:]
    var hits: Int?
    var unmatched = (requests: 0, hits: 0)
    var failures: [String: Int] = [:]
    var latency: Histogram<UInt64>?
    var events: [String: Int] = [:], endings: [String: Int] = [:]
    var granted = 0, forfeited = 0
    var networks: [String: FleetReport.NetworkPopulation] = [:]

    mutating func add(_ fleet: FleetMetricsBoard.Fleet) {
        let counts = fleet.tally.snapshot
        planned += fleet.sessions
        started += counts.sessionsStarted
        done += counts.sessionsDone
        waiting += fleet.tally.waiting.sessions
        inFlight += fleet.tally.outstanding
        let matched = fleet.tally.reconciler?.received(rows: fleet.rows.count)
        for (row, labels) in fleet.rows.enumerated() {
            let key = Labels(event: labels.event, source: labels.source)
            sent[key, default: 0] += counts.sent[row]
            delivered[key, default: 0] += counts.delivered[row]
            if let matched { received[key, default: 0] += matched.perKey[row] }
        }
        if let reconciler = fleet.tally.reconciler {
            hits = (hits ?? 0) + reconciler.hitsSeen
            let waiting = reconciler.unmatched
            unmatched = (unmatched.requests + waiting.requests, unmatched.hits + waiting.hits)
        }
        failures.merge(counts.failures, uniquingKeysWith: +)
        if latency == nil { latency = counts.latency } else { latency?.add(counts.latency) }
        events.merge(counts.eventsByName, uniquingKeysWith: +)
        endings.merge(counts.endings, uniquingKeysWith: +)
        granted += counts.rewardsGranted
        forfeited += counts.rewardsForfeited
        networks.merge(counts.networks, uniquingKeysWith: +)
    }

    func families(maxReasons: Int, latencyBuckets: [Double]) -> [MetricFamily] {
        var families = [
            MetricFamily("vplay_fleet_sessions", .gauge, help: "Sessions by state: queued (not started yet), playing, done.",
                         samples: [("queued", planned - started), ("playing", started - done), ("done", done)].map { .init([.init("state", $0.0)], .number(Double($0.1))) }),
            MetricFamily("vplay_fleet_sessions_waiting", .gauge, help: "Sessions held back until beacons in flight are answered.",
                         samples: [.init([], .number(Double(waiting)))]),
            MetricFamily("vplay_fleet_sessions_ended_total", .counter, help: "Sessions ended, by how their ad ended.",
                         samples: Self.labelled("ending", endings)),
            Self.beacons("vplay_fleet_beacons_sent_total", "Beacon requests sent (first attempts), by tracking event and source.", sent),
            Self.beacons("vplay_fleet_beacons_delivered_total", "Beacons answered 2xx or 3xx, by tracking event and source.", delivered),
            MetricFamily("vplay_fleet_beacons_in_flight", .gauge, help: "Beacons sent or queued and not answered yet.",
                         samples: [.init([], .number(Double(inFlight)))]),
            MetricFamily("vplay_fleet_beacon_failures_total", .counter, help: "Beacons that failed after their last attempt, by reason.",
                         samples: Self.labelled("reason", Self.bounded(failures, to: maxReasons))),
            MetricFamily("vplay_fleet_events_total", .counter, help: "Playback events the sessions played, by event.",
                         samples: Self.labelled("event", events)),
            MetricFamily("vplay_fleet_rewards_total", .counter, help: "Rewards granted and forfeited.",
                         samples: [.init([.init("outcome", "granted")], .number(Double(granted))), .init([.init("outcome", "forfeited")], .number(Double(forfeited)))]),
        ]
        if let hits {
            families.append(Self.beacons("vplay_fleet_beacons_received_total", "Beacons received at the embedded sink, matched to their request, by tracking event and source.", received))
            families.append(MetricFamily("vplay_fleet_sink_hits_total", .counter, help: "Requests the embedded sink received.", samples: [.init([], .number(Double(hits)))]))
            families.append(MetricFamily("vplay_fleet_sink_unmatched", .gauge,
                                         help: "Requests to the sink not seen there yet, and hits whose request is not recorded yet (what reconciliation holds).",
                                         samples: [.init([.init("side", "requests")], .number(Double(unmatched.requests))),
                                                   .init([.init("side", "hits")], .number(Double(unmatched.hits)))]))
        }
        if let latency { families.append(Self.latencyFamily(latency, buckets: latencyBuckets)) }
        if !networks.isEmpty { families += networkFamilies() }
        return families
    }

    private func networkFamilies() -> [MetricFamily] {
        let names = networks.keys.sorted()
        func samples(_ value: (FleetReport.NetworkPopulation) -> Double) -> [MetricFamily.Sample] {
            names.map { .init([.init("network", $0)], .number(value(networks[$0]!))) }
        }
        return [
            MetricFamily("vplay_fleet_network_sessions_total", .counter, help: "Sessions ended, by simulated network.", samples: samples { Double($0.sessions) }),
            MetricFamily("vplay_fleet_stalls_total", .counter, help: "Rebuffering stalls, by simulated network.", samples: samples { Double($0.rebuffers) }),
            MetricFamily("vplay_fleet_stall_seconds_total", .counter, help: "Seconds spent stalled, by simulated network.", samples: samples { $0.stalledSeconds }),
            MetricFamily("vplay_fleet_network_beacons_total", .counter, help: "Beacons sent by the sessions on each simulated network, by outcome.",
                         samples: names.flatMap { name -> [MetricFamily.Sample] in
                             let network = networks[name]!
                             return [("sent", network.beaconsSent), ("delivered", network.beaconsDelivered), ("failed", network.beaconsFailed)].map { outcome, count in
                                 .init([.init("network", name), .init("outcome", outcome)], .number(Double(count)))
                             }
                         }),
        ]
    }

    private static func beacons(_ name: String, _ help: String, _ values: [Labels: Int]) -> MetricFamily {
        MetricFamily(name, .counter, help: help, samples: values.keys.sorted { ($0.event, $0.source) < ($1.event, $1.source) }.map { key in
            .init([.init("event", key.event), .init("source", key.source)], .number(Double(values[key]!)))
        })
    }

    private static func labelled(_ label: String, _ values: [String: Int]) -> [MetricFamily.Sample] {
        values.keys.sorted().map { .init([.init(label, $0)], .number(Double(values[$0]!))) }
    }

    /// At most `limit` keys (the most counted), the rest added up as `other`.
    static func bounded(_ values: [String: Int], to limit: Int) -> [String: Int] {
        guard values.count > limit else { return values }
        let kept = values.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(limit - 1)
        var result = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        result["other", default: 0] += values.filter { result[$0.key] == nil }.values.reduce(0, +)
        return result
    }

    /// The latency histogram (microseconds, HdrHistogram) in seconds, in Prometheus's buckets; the sum from the mean.
    private static func latencyFamily(_ latency: Histogram<UInt64>, buckets: [Double]) -> MetricFamily {
        let count = latency.totalCount
        let cumulative = buckets.map { bound in
            MetricFamily.Bucket(upperBound: bound, count: count == 0 ? 0 : latency.count(within: 0...UInt64(bound * 1_000_000)))
        }
        let sum = count == 0 ? 0 : latency.mean * Double(count) / 1_000_000
        return MetricFamily("vplay_fleet_beacon_latency_seconds", .histogram,
                            help: "Beacon request latency, send to answer, of requests put on the wire.",
                            samples: [.init([], .histogram(buckets: cumulative, sum: sum, count: count))])
    }
}
