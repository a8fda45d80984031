import AdSession
import Foundation
import Testing
import TestSupport

/// Server-side fleets (issue 42, item 4) in process: the oracle's server-side prediction (the stitcher's beacons by
/// the segments each viewer asked for) equals what the sessions sent, with every mix of viewers and prefetch; the
/// same viewers counted by the player and by the stitcher differ exactly by the views the stitcher counted that no
/// one saw; pods too.
@Suite struct ServerSideFleetBehaviourTests {
    let kit = SessionKit()

    func report(_ arguments: [String]) async throws -> FleetReport {
        try await kit.fleet(cli: ["fleet", "--vast", "media/demo.xml", "--sessions", "400", "--seed", "11",
                                  "--mix", "complete:40,background:10,pause:10,click:10,skip:15,close:15"] + arguments).0.get()
    }

    static func sent(_ report: FleetReport, _ event: String) -> Int {
        report.population.beacons.filter { $0.event == event }.reduce(0) { $0 + $1.sent }
    }

    @Test(arguments: [0, 1, 3])
    func theOraclesServerPrediction_isWhatTheStitcherSent(prefetch: Int) async throws {
        let server = try await report(["--ssai", "server", "--segment", "2", "--prefetch", "\(prefetch)"])
        for beacon in server.population.beacons {
            #expect(beacon.expected == beacon.sent && beacon.sent == beacon.delivered, "\(beacon)")
        }
        #expect(server.checks.sentAsExpected)
        // The stitcher fires none of the viewer's own events.
        #expect(Self.sent(server, "pause") == 0 && Self.sent(server, "skip") == 0 && Self.sent(server, "closeLinear") == 0)
        let client = try await report([])
        let stitched = try #require(server.population.serverSide)
        for event in ["firstQuartile", "midpoint", "thirdQuartile", "complete"] {
            // Every view the stitcher counted beyond the player's was one no one saw.
            #expect(Self.sent(server, event) - Self.sent(client, event) == stitched[event]?.unseen, "\(event): \(stitched[event].map { "\($0)" } ?? "-")")
        }
        #expect(stitched["impression"]?.unseen == 0 && stitched["impression"]?.fired == 400)
        // Ahead by at least the time from the request to the point, never behind on average, the largest lead above the mean.
        #expect((stitched["complete"]?.meanLead ?? 0) >= 2.0 - 1e-9 && stitched.values.allSatisfy { $0.meanLead >= 0 && $0.maxLead >= $0.meanLead })
    }

    @Test func aPodFleet_isPredictedAdByAd() async throws {
        let report = try await kit.fleet(cli: ["fleet", "--vast", "media/pods/pod.xml", "--sessions", "120", "--seed", "5", "--mix", "complete:2,skip:1,close:1",
                                               "--ssai", "server", "--prefetch", "1"]).0.get()
        #expect(report.checks.sentAsExpected, "\(report.population.beacons.filter { $0.expected != $0.sent })")
        #expect(report.population.serverSide?["impression"]?.fired ?? 0 > 120)
    }
}
