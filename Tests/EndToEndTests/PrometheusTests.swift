import Foundation
import Testing
import TestSupport

/// `fleet --metrics` scraped by a real Prometheus (issue 43, item 3): Debian's `prometheus`, started on loopback with
/// a scrape interval of 1 s by `Tests/Tools/prometheus-scrape.py`, scrapes a running fleet (its port the system picks:
/// another test cannot take it first); PromQL over what it stored
/// gives the fleet report's sent and received beacons; `promtool check metrics` passes on the exposition taken while
/// the fleet ran. The fleet is held to 1,000 beacons a second (`--rate`), so it runs for about 12 s however fast the
/// machine (slower only makes it longer): Prometheus scrapes it while it runs. Every wait in the script is a bounded
/// readiness wait; nothing is timed.
@Suite(.hangLimit) struct PrometheusTests {
    @Test func prometheusScrapesARunningFleet_andPromQLGivesTheReportsSentAndReceived() async throws {
        for tool in ["prometheus", "promtool"] where ExternalValidators.which(tool) == nil {
            Issue.record("\(tool) is not installed: run scripts/setup.sh")
            return
        }
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("fleet.json").path
        let script = Repo.root.appendingPathComponent("Tests/Tools/prometheus-scrape.py").path, work = folder.url.path
        let output = try await offThePool {
            try run("python3", [script, work, Repo.vplayBinary, "--vast", "media/demo.xml", "--sessions", "1000", "--seed", "3",
                                "--rate", "1000", "--sink-all", "--report", report])
        }
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(seen["error"] == nil, "\(seen)")
        #expect(seen["fleetExit"] as? Int == 0, "\(seen)")
        #expect(seen["promtool"] as? Int == 0, "promtool check metrics: \(seen["promtoolOutput"] ?? "")")
        let queries = try #require(seen["queries"] as? [String: Any])
        func value(_ name: String) -> Double? { queries[name] as? Double }

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let population = try #require(document["population"] as? [String: Any])
        let beacons = try #require(population["beacons"] as? [[String: Any]])
        let sent = beacons.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) }, received = beacons.reduce(0) { $0 + ($1["received"] as? Int ?? 0) }
        let impressions = beacons.filter { $0["event"] as? String == "impression" }.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) }
        #expect(sent > 10_000 && received == sent, "the fleet's own reconciliation: \(sent) sent, \(received) received")
        #expect(value("sent") == Double(sent), "sum(vplay_fleet_beacons_sent_total) against the report's \(sent)")
        #expect(value("received") == Double(received), "sum(vplay_fleet_beacons_received_total) against the report's \(received)")
        #expect(value("delivered") == Double(beacons.reduce(0) { $0 + ($1["delivered"] as? Int ?? 0) }))
        #expect(value("unmatched") == 0, "every request met its hit: reconciliation holds nothing at the end")
        #expect(value("sessionsDone") == 1000 && value("impressions") == Double(impressions))
        #expect(value("leastFinished") == 0, "a scrape while the fleet ran")
        #expect((value("leastImpressions") ?? .infinity) < Double(impressions), "impressions grew between scrapes: \(queries)")
    }
}
