extension FleetTally {
    /// The figures a threshold judges, so far (`--abort-on-fail`): each row's sent, delivered and received (received
    /// only with the embedded sink), failures, the networks' counts and the latency's maximum, read from each hold
    /// without copying its latency histogram.
    var figures: FleetThreshold.Figures {
        var beacons = rowKeys.map { FleetReport.Beacon(event: $0.event, source: $0.source, template: $0.template, offset: nil, expected: 0,
                                                      sent: 0, delivered: 0, received: nil, ad: $0.ad) }
        var failures = 0, maximum: UInt64 = 0, counted = 0
        var networks: [String: FleetReport.NetworkPopulation] = [:]
        for shard in shards {
            shard.withLock { held in
                for row in beacons.indices where row < held.counts.sent.count {
                    beacons[row].sent += held.counts.sent[row]
                    beacons[row].delivered += held.counts.delivered[row]
                }
                failures += held.counts.failures.values.reduce(0, +)
                counted += Int(held.counts.latency.totalCount)
                maximum = Swift.max(maximum, held.counts.latency.max)
                networks.merge(held.counts.networks, uniquingKeysWith: +)
            }
        }
        if let matched = reconciler?.received(rows: beacons.count).perKey {
            for row in beacons.indices { beacons[row].received = (beacons[row].received ?? 0) + matched[row] }
        }
        return FleetThreshold.Figures(beacons: beacons, failures: failures, networks: networks.isEmpty ? nil : networks,
                                      latency: counted > 0 ? ["max": Double(maximum) / 1_000_000] : [:])
    }
}
