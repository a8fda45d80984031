import Foundation
import Testing
@testable import AdSession

/// The fleet report writes every time in seconds without a unit in its key; `vplay merge` still reads shard reports
/// written before (`p50Ms`…, `histogram`, `seconds`, `decodeSeconds`, `latency`, `stalledSeconds`).
@Suite struct FleetReportKeysTests {
    static func report() -> FleetReport {
        var network = FleetReport.NetworkPopulation()
        network.sessions = 2
        network.stalledSeconds = 1.5
        let population = FleetReport.Population(
            scenarios: ["complete": 2], endings: ["completed": 2], rewardsGranted: 2, rewardsForfeited: 0, events: ["start": 2],
            beacons: [.init(event: "start", source: "inline", template: "http://t.example/s", offset: nil, expected: 2, sent: 2, delivered: 2, received: nil)],
            failures: [:], unexpected: nil, networks: ["wifi": network])
        let latency = FleetReport.Latency(count: 2, p50: 0.012, p90: 0.02, p99: 0.02, max: 0.02, histogram: [[12000, 1], [20000, 1]])
        return FleetReport(
            fleet: .init(tag: "t.xml", sessions: 2, seed: 7, mix: "complete:1", shardCount: 1, shards: [0], missingShards: nil,
                         media: "m.mp4", duration: 10, decodeEach: false, dryRun: false),
            population: population, checks: FleetReport.checks(of: population),
            performance: .init(seconds: 2.5, decodeSeconds: 0.25, sessionsPerSecond: 0.8, beaconsPerSecond: 0.8, latency: latency, peakRSSMiB: 30),
            warnings: [])
    }

    @Test func timesAreSeconds_namedWithoutAUnit() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: try Self.report().json()) as? [String: Any])
        let performance = try #require(object["performance"] as? [String: Any])
        #expect(performance["wallTime"] as? Double == 2.5 && performance["decodeTime"] as? Double == 0.25)
        let latency = try #require(performance["beaconLatency"] as? [String: Any])
        #expect(latency["p50"] as? Double == 0.012 && latency["max"] as? Double == 0.02 && latency["histogramMicroseconds"] != nil)
        let networks = try #require((object["population"] as? [String: Any])?["networks"] as? [String: [String: Any]])
        #expect(networks["wifi"]?["stallTime"] as? Double == 1.5)
    }

    @Test func aReportWrittenWithTheOldKeys_stillReads() throws {
        var text = String(decoding: try Self.report().json(), as: UTF8.self)
        for (new, old) in [("\"wallTime\"", "\"seconds\""), ("\"decodeTime\"", "\"decodeSeconds\""), ("\"beaconLatency\"", "\"latency\""),
                           ("\"histogramMicroseconds\"", "\"histogram\""), ("\"stallTime\"", "\"stalledSeconds\""),
                           ("\"p50\" : 0.012", "\"p50Ms\" : 12"), ("\"p90\" : 0.02", "\"p90Ms\" : 20"), ("\"p99\" : 0.02", "\"p99Ms\" : 20"),
                           ("\"max\" : 0.02", "\"maxMs\" : 20")] {
            #expect(text.contains(new), "\(new) in \(text)")
            text = text.replacingOccurrences(of: new, with: old)
        }
        let read = try JSONDecoder().decode(FleetReport.self, from: Data(text.utf8))
        #expect(read == Self.report())
    }
}
