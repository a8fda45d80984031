import PlayerEngine
import SQLite

/// A session's row in `--results`: its index in the fleet, scenario, network, how it ended.
struct FleetResultsSession: Sendable {
    var index: Int
    var scenario: String
    var network: String?
    var ending: String
    var loaded: Bool
    var rewardGranted: Bool
    var rewardForfeited: Bool
    var rebuffers: Int
    var stalledSeconds: Double

    /// As the tally counts it (`FleetTally.Counts.count(_:network:report:)`).
    init(_ scenario: FleetScenario, network: String?, report: PlaybackReport?) {
        index = scenario.index
        self.scenario = scenario.kind.rawValue
        self.network = network
        ending = report?.ending?.rawValue ?? "none"
        loaded = report != nil
        rewardGranted = report?.rewardGranted == true
        rewardForfeited = report?.events.contains(.rewardForfeited) == true
        rebuffers = report?.rebuffers ?? 0
        stalledSeconds = report?.rebufferTime.seconds ?? 0
    }

    var values: [SQLiteValue] {
        [.init(index), .text(scenario), .init(network), .text(ending), .init(loaded ? 1 : 0), .init(rewardGranted ? 1 : 0),
         .init(rewardForfeited ? 1 : 0), .init(rebuffers), .real(stalledSeconds)]
    }
}
