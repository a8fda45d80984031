import Histogram
import PlayerEngine
import SQLite

/// A population counted again from `--results` rows, added up over files.
struct FleetResultsCounts {
    var beacons: [FleetReport.Beacon]
    var failures: [String: Int] = [:]
    var events: [String: Int] = [:]
    var scenarios: [String: Int] = [:]
    var endings: [String: Int] = [:]
    var rewardsGranted = 0, rewardsForfeited = 0
    var unexpected: Int?
    var networks: [String: FleetReport.NetworkPopulation] = [:]
    var latency = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    /// No counts yet, for the tracking URLs of `template` (their expectations kept; received counted when they are).
    init(template: FleetReport.Population) {
        beacons = template.beacons.map { beacon in
            var row = beacon
            (row.sent, row.delivered, row.received) = (0, 0, beacon.received.map { _ in 0 })
            return row
        }
    }

    /// Adds one file's rows.
    mutating func add(_ file: SQLiteConnection) throws(SQLiteError) {
        for row in try file.query("SELECT row, count(*), sum(delivered) FROM beacons WHERE final = 1 AND row IS NOT NULL GROUP BY row") {
            guard let index = row[0].int, beacons.indices.contains(index) else { continue }
            beacons[index].sent += row[1].int ?? 0
            beacons[index].delivered += row[2].int ?? 0
        }
        for row in try file.query("SELECT row, count(*) FROM received GROUP BY row") {
            guard let index = row[0].int, beacons.indices.contains(index), beacons[index].received != nil else { continue }
            beacons[index].received! += row[1].int ?? 0
        }
        try sum(file, "SELECT failure, count(*) FROM beacons WHERE failure IS NOT NULL GROUP BY failure", into: &failures)
        try sum(file, "SELECT event, count(*) FROM events GROUP BY event", into: &events)
        try sum(file, "SELECT scenario, count(*) FROM sessions GROUP BY scenario", into: &scenarios)
        try sum(file, "SELECT ending, count(*) FROM sessions GROUP BY ending", into: &endings)
        if let rewards = try file.query("SELECT sum(reward_granted), sum(reward_forfeited) FROM sessions").first {
            rewardsGranted += rewards[0].int ?? 0
            rewardsForfeited += rewards[1].int ?? 0
        }
        if let stored = try file.query("SELECT value FROM run WHERE key = 'unexpected'").first?.first?.int { unexpected = (unexpected ?? 0) + stored }
        try addNetworks(file)
        let latencies = try file.prepare("SELECT latency_us FROM beacons WHERE final = 1 AND latency_us IS NOT NULL")
        while let row = try latencies.step() { if let value = row[0].int { _ = latency.record(UInt64(value)) } }
    }

    private mutating func addNetworks(_ file: SQLiteConnection) throws(SQLiteError) {
        let query = """
            SELECT network, count(*), sum(1 - loaded), sum(rebuffers > 0), sum(rebuffers), sum(stalled_seconds)
            FROM sessions WHERE network IS NOT NULL GROUP BY network
            """
        for row in try file.query(query) {
            guard let name = row[0].string else { continue }
            var network = FleetReport.NetworkPopulation()
            (network.sessions, network.failedToLoad, network.sessionsThatStalled) = (row[1].int ?? 0, row[2].int ?? 0, row[3].int ?? 0)
            (network.rebuffers, network.stalledSeconds) = (row[4].int ?? 0, row[5].double ?? 0)
            networks[name] = (networks[name] ?? FleetReport.NetworkPopulation()) + network
        }
        let beacons = """
            SELECT s.network, count(*), sum(b.delivered), count(b.failure)
            FROM beacons b JOIN sessions s ON s.session = b.session
            WHERE s.network IS NOT NULL AND b.final = 1 GROUP BY s.network
            """
        for row in try file.query(beacons) {
            guard let name = row[0].string else { continue }
            var network = networks[name] ?? FleetReport.NetworkPopulation()
            network.beaconsSent += row[1].int ?? 0
            network.beaconsDelivered += row[2].int ?? 0
            network.beaconsFailed += row[3].int ?? 0
            networks[name] = network
        }
        let milestones = FleetReport.NetworkPopulation.milestones.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let reached = """
            SELECT s.network, e.event, count(DISTINCT e.session) FROM events e JOIN sessions s ON s.session = e.session
            WHERE s.network IS NOT NULL AND s.loaded = 1 AND e.event IN (\(milestones)) GROUP BY s.network, e.event
            """
        for row in try file.query(reached) {
            guard let name = row[0].string, let event = row[1].string else { continue }
            networks[name, default: FleetReport.NetworkPopulation()].reached[event, default: 0] += row[2].int ?? 0
        }
    }

    private func sum(_ file: SQLiteConnection, _ query: String, into counts: inout [String: Int]) throws(SQLiteError) {
        for row in try file.query(query) {
            guard let key = row[0].string else { continue }
            counts[key, default: 0] += row[1].int ?? 0
        }
    }

    /// The population these counts make.
    func population(networks hasNetworks: Bool, serverSide: [String: FleetStitched]?) -> FleetReport.Population {
        FleetReport.Population(
            scenarios: scenarios, endings: endings, rewardsGranted: rewardsGranted, rewardsForfeited: rewardsForfeited, events: events,
            beacons: beacons, failures: failures, unexpected: unexpected, networks: hasNetworks ? networks : nil,
            viewability: FleetReport.Viewability.of(events: events), serverSide: serverSide)
    }
}
