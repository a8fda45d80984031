import Foundation
import Testing
import TestSupport

/// `fleet --results FILE.sqlite` end to end (issue 43, item 4): a fleet of 10,000 sessions to the embedded sink writes
/// every session, event, beacon attempt and hit; Debian's `sqlite3` asks it, in SQL, the per-event sent and received
/// counts the report gives; two shards' databases merged by `vplay merge` equal the unsharded run, and the report
/// regenerated from the rows is the run's own.
@Suite(.hangLimit) struct FleetResultsTests {
    static let fleet = ["fleet", "--vast", "media/demo.xml", "--seed", "5", "--sink", "--sessions", "10000", "--quiet"] + FleetEndToEndTests.patient

    /// `sqlite3 FILE SQL`'s rows, each split at `|`.
    func sql(_ file: String, _ query: String) async throws -> [[String]] {
        let sqlite = try #require(ExternalValidators.which("sqlite3"), "sqlite3 is not installed (scripts/setup.sh installs it)")
        let run = try await runProcess(sqlite, [file, query])
        try #require(run.status == 0, "sqlite3: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Per event, the report's sent and received summed over its tracking URLs.
    func perEvent(_ report: [String: Any]) throws -> [String: [Int]] {
        let beacons = try #require((report["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
        var counts: [String: [Int]] = [:]
        for beacon in beacons {
            let event = beacon["event"] as? String ?? "", sent = beacon["sent"] as? Int ?? 0, received = beacon["received"] as? Int ?? 0
            guard sent > 0 || received > 0 else { continue }
            counts[event, default: [0, 0]][0] += sent
            counts[event, default: [0, 0]][1] += received
        }
        return counts
    }

    func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// The population of a report file as JSON data with sorted keys, to compare two exactly.
    func population(_ path: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: try #require(try json(path)["population"]), options: [.sortedKeys])
    }

    @Test func tenThousandSessions_answerInSQLWhatTheReportSays_andShardsMergeIntoTheWhole() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let whole = try await vplay(Self.fleet + ["--results", path("all.sqlite"), "--report", path("all.json")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("all.sqlite.partial")), "the partial file is renamed at the end")

        // Per event, in SQL: sent (one final attempt a beacon) and received (hits at the sink matched to its URL).
        let query = """
            SELECT t.event, (SELECT count(*) FROM beacons b JOIN tracking_urls u ON u.row = b.row WHERE b.final = 1 AND u.event = t.event),
                   (SELECT count(*) FROM received r JOIN tracking_urls u ON u.row = r.row WHERE u.event = t.event)
            FROM (SELECT DISTINCT event FROM tracking_urls) t ORDER BY t.event;
            """
        let rows = try await sql(path("all.sqlite"), query)
        var fromSQL: [String: [Int]] = [:]
        for row in rows where row.count == 3 && (Int(row[1]) ?? 0) + (Int(row[2]) ?? 0) > 0 { fromSQL[row[0]] = [Int(row[1]) ?? -1, Int(row[2]) ?? -1] }
        let report = try json(path("all.json"))
        let fromReport = try perEvent(report)
        #expect(fromSQL == fromReport, "SQL \(fromSQL)\nreport \(fromReport)")
        #expect((fromReport["impression"] ?? []) == [10000, 10000])
        let sessions = try await sql(path("all.sqlite"), "SELECT count(*), count(DISTINCT session) FROM sessions; SELECT count(*) FROM beacons WHERE session IS NULL;")
        #expect(sessions == [["10000", "10000"], ["0"]], "every session a row; every beacon attempt names its session")

        // The report regenerated from the rows is the run's.
        let again = try await vplay(["merge", path("all.sqlite"), "--report", path("again.json"), "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try population(path("again.json")) == population(path("all.json")))

        // Two shards, merged: their databases into one, and its report, equal the whole run.
        let (shard0, shard1) = (Self.fleet + ["--shard", "0/2", "--results", path("shard-0-2.sqlite")],
                                Self.fleet + ["--shard", "1/2", "--results", path("shard-1-2.sqlite")])
        async let first = vplay(shard0)
        async let second = vplay(shard1)
        for (shard, run) in try await [("0/2", first), ("1/2", second)] { #expect(run.status == 0, "\(shard): \(run.stderr)") }
        let merged = try await vplay(["merge", path("shard-0-2.sqlite"), path("shard-1-2.sqlite"), "--results", path("merged.sqlite"),
                                      "--report", path("merged.json"), "--quiet"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try population(path("merged.json")) == population(path("all.json")))
        #expect(try await sql(path("merged.sqlite"), query) == rows)
        #expect(try await JSONSchemaCheck.validate([.init(path("merged.json"), schema: "fleet-report.schema.json")]).isEmpty)
    }

    /// On `--network-mix`, each network's viewers and their beacons are in the rows too: the report regenerated from
    /// them says per network what the run's did, beacons by network included.
    @Test func networksAndTheirBeacons_regenerateFromTheRows() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--seed", "4", "--sink", "--sessions", "200", "--quiet",
                                   "--network-mix", "wifi:50,offline:50", "--results", path("n.sqlite"), "--report", path("n.json")]
                                  + FleetEndToEndTests.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let again = try await vplay(["merge", path("n.sqlite"), "--report", path("again.json"), "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try population(path("again.json")) == population(path("n.json")))
        let networks = try #require((try json(path("n.json"))["population"] as? [String: Any])?["networks"] as? [String: [String: Any]])
        let sent = networks.values.map { $0["beaconsSent"] as? Int ?? -1 }
        #expect(sent.count == 2 && sent.allSatisfy { $0 > 0 }, "\(networks)")
        let bySQL = try await sql(path("n.sqlite"), """
            SELECT s.network, count(*) FROM beacons b JOIN sessions s ON s.session = b.session WHERE b.final = 1 GROUP BY s.network ORDER BY s.network;
            """)
        #expect(bySQL == networks.keys.sorted().map { [$0, "\(networks[$0]?["beaconsSent"] as? Int ?? -1)"] })
    }

    @Test func whatCannotBeMerged_isRefusedInOneLine() async throws {
        let folder = try TemporaryFolder()
        let notResults = folder.url.appendingPathComponent("empty.sqlite").path
        _ = FileManager.default.createFile(atPath: notResults, contents: Data("not a database".utf8))
        let refused = try await vplay(["merge", notResults])
        #expect(refused.status == 2 && refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("empty.sqlite"), "\(refused.stderr)")
        let mixed = try await vplay(["merge", notResults, "media/demo.xml"])
        #expect(mixed.status == 2 && mixed.stderr.contains("not both"), "\(mixed.stderr)")
        let vmap = try await vplay(["fleet", "--vmap", "media/vmap/demo.xml", "--results", folder.url.appendingPathComponent("v.sqlite").path])
        #expect(vmap.status == 2 && vmap.stderr.contains("--results: a fleet of one VAST tag"), "\(vmap.stderr)")
    }
}
