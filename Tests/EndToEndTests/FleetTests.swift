import AdSession
import Foundation
import Testing
import TestSupport
@testable import vplay

/// `vplay fleet` over real HTTP to the embedded sink, and `vplay merge` on report files: what only the binary
/// against a real loopback server, and a process's exit status and files, show. The oracle's agreement with what the
/// sessions send (icons, networks, warnings, shards adding up, no ad) is `FleetOracleBehaviourTests`, in process.
@Suite(.hangLimit) struct FleetEndToEndTests {
    /// These tests count beacons, not latency: a 60 s beacon timeout, so a debug build in a whole-suite run (fleet
    /// sessions and their answers share the event loops, and the machine is shared with every other test) cannot
    /// turn a slow answer into a failure that makes the counts differ.
    static let patient = ["--beacon-timeout", "60"]

    func report(_ run: Invocation) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "stdout: \(run.stdout.prefix(300)) stderr: \(run.stderr)")
    }

    /// Only the binary against a real sink shows every beacon received: 300 viewers of a mixed audience, `--pipeline 8`
    /// over fewer keep-alive connections, every beacon expected = sent = delivered = received once at the sink.
    @Test func pipelinedToARealSink_everyBeaconExpectedSentDeliveredAndReceivedOnce() async throws {
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "300", "--concurrency", "32", "--sink-all", "--seed", "3",
                                   "--mix", "complete:50,background:15,pause:5,click:10,skip:10,close:10", "--pipeline", "8", "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try report(run)
        let (_, beacons) = try Self.expectEveryBeaconCountedOnce(report)
        #expect(beacons.first { $0["event"] as? String == "impression" }?["received"] as? Int == 300)
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["sentAsExpected"] as? Bool == true && checks["receivedAsSent"] as? Bool == true)
    }

    /// Every tracking URL's beacons expected = sent = delivered = received at the sink, nothing unexpected, no
    /// failure. Returns the population and its rows.
    static func expectEveryBeaconCountedOnce(_ report: [String: Any]) throws -> (population: [String: Any], beacons: [[String: Any]]) {
        let population = try #require(report["population"] as? [String: Any])
        let beacons = try #require(population["beacons"] as? [[String: Any]])
        for beacon in beacons {
            let expected = beacon["expected"] as? Int, sent = beacon["sent"] as? Int
            #expect(expected == sent && sent == beacon["delivered"] as? Int && sent == beacon["received"] as? Int, "\(beacon)")
        }
        #expect(population["unexpected"] as? Int == 0)
        #expect((population["failures"] as? [String: Any])?.isEmpty == true, "\(population["failures"] ?? "none")")
        return (population, beacons)
    }

    /// Only a process shows `vplay merge` reading shard reports from files, its exit status and messages, and the
    /// report it writes: shards of one fleet merge (0), a shard twice or shards of different fleets are refused (2),
    /// a partial merge exits 1 naming the missing shard unless `--allow-partial` accepts it. That the merged shards
    /// equal the whole fleet is `FleetOracleBehaviourTests`.
    @Test func mergeCommand_readsShardReports_exitCodesAndTheReportItWrites() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        // The shard reports, made in process on the session kit and encoded as `vplay fleet --report` writes them
        // (`FleetReport.json()`): what is tested here is merge reading them.
        for (name, shard) in [("shard0", "0/3"), ("shard1", "1/3"), ("shard2", "2/3"), ("other", "0/2")] {
            let command = try CLI.parse(FleetCommand.self, ["fleet", "--vast", Repo.media("demo.xml"), "--sessions", "24", "--dry-run", "--seed", "21",
                                                            "--now", "2026-01-01T00:00:00Z", "--shard", shard])
            let (result, _) = await SessionKit().fleet(command.fleetConfiguration())
            try result.get().json().write(to: URL(fileURLWithPath: path("\(name).json")))
        }
        let cases: [([String], Int32, String)] = [
            ([path("shard2.json"), path("shard0.json"), path("shard1.json"), "--report", path("merged.json")], 0, ""),
            ([path("shard0.json"), path("shard0.json")], 2, "shard 0 is given twice"),
            ([path("shard0.json"), path("other.json")], 2, "not shards of one fleet"),
            // Two of three shards: not the whole fleet. It exited 0 with a warning; now 1, and the report says which
            // shard is missing, unless --allow-partial accepts it.
            ([path("shard0.json"), path("shard2.json"), "--report", path("partial.json")], 1, "vplay: error: 2 of 3 shards merged; missing: 1"),
            ([path("shard0.json"), path("shard2.json"), "--allow-partial"], 0, "vplay: warning: 2 of 3 shards merged"),
        ]
        for (arguments, status, message) in cases {
            let run = try await vplay(["merge"] + arguments)
            #expect(run.status == status && (message.isEmpty || run.stderr.contains(message)), "\(arguments): \(run.stderr)")
        }
        func fleet(_ name: String) throws -> [String: Any]? {
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(name)))) as? [String: Any])?["fleet"] as? [String: Any]
        }
        let merged = try #require(try fleet("merged.json")), partial = try #require(try fleet("partial.json"))
        #expect(merged["shards"] as? [Int] == [0, 1, 2] && merged["missingShards"] == nil, "a complete merge has none")
        #expect(partial["missingShards"] as? [Int] == [1])
    }

    /// `fleet --progress`: a JSON line per report, the last one the whole fleet, with its reach.
    @Test func fleetProgress_endsWithTheWholeFleetAndItsReach() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("progress.jsonl").path
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "300", "--dry-run", "--mix", "complete:1", "--progress", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let lastLine = try #require(lines.last)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        #expect(last["sessionsDone"] as? Int == 300 && last["sessions"] as? Int == 300)
        let events = try #require(last["events"] as? [String: Int])
        #expect(events == ["impression": 300, "start": 300, "firstQuartile": 300, "midpoint": 300, "thirdQuartile": 300, "complete": 300])
    }

    /// Issue 43, item 1: the fleet's sink keeps no hit; `--sink-log` streams each as it arrives, and the fleet still
    /// reconciles every beacon (matched as they arrive). The log is an output: it may not be the report.
    @Test func fleetSinkLog_streamsEveryHit_andTheFleetStillReconcilesThemAll() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("hits.jsonl").path, report = folder.url.appendingPathComponent("fleet.json").path
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "200", "--seed", "4", "--sink-all", "--sink-log", log,
                                   "--report", report] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let population = try #require(document["population"] as? [String: Any])
        let rows = try #require(population["beacons"] as? [[String: Any]])
        let sent = rows.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) }
        #expect(sent > 2000 && rows.allSatisfy { $0["received"] as? Int == $0["sent"] as? Int } && population["unexpected"] as? Int == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == sent, "one line a hit")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["sequence"] as? Int == 1 && (first["target"] as? String)?.hasPrefix("/") == true)

        let clash = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "1", "--sink-all", "--sink-log", report, "--report", report])
        #expect(clash.status == 2 && clash.stderr.contains("--sink-log"), "\(clash.stderr)")
        let noSink = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "1", "--sink-log", log])
        #expect(noSink.status == 2 && noSink.stderr.contains("--sink-log logs the embedded sink's hits"), "\(noSink.stderr)")
    }
}
