import Foundation
import Testing
import TestSupport

/// `vplay fleet` and `vplay merge` over real HTTP to the embedded sink.
@Suite(.hangLimit) struct FleetEndToEndTests {
    /// These tests count beacons, not latency: a 60 s beacon timeout, so a debug build in a whole-suite run (fleet
    /// sessions and their answers share the event loops, and the machine is shared with every other test) cannot
    /// turn a slow answer into a failure that makes the counts differ.
    static let patient = ["--beacon-timeout", "60"]

    func report(_ run: Invocation) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "stdout: \(run.stdout.prefix(300)) stderr: \(run.stderr)")
    }

    @Test func fiveHundredSessions_everyBeaconExpectedSentDeliveredAndReceivedExactly() async throws {
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "500", "--concurrency", "16", "--sink", "--seed", "5",
                                   "--mix", "complete:50,background:15,pause:5,click:10,skip:10,close:10", "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try report(run)
        let (population, beacons) = try Self.expectEveryBeaconCountedOnce(report)
        #expect(beacons.count == 19, "every tracking URL of the demo tag is listed")
        let impressions = try #require(beacons.first { $0["event"] as? String == "impression" })
        #expect(impressions["received"] as? Int == 500)
        let scenarios = try #require(population["scenarios"] as? [String: Int])
        #expect(scenarios.values.reduce(0, +) == 500)
        #expect(Set(scenarios.keys) == ["complete", "background", "pause", "click", "skip", "close"])
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["sentAsExpected"] as? Bool == true && checks["receivedAsSent"] as? Bool == true)
        let latency = try #require((report["performance"] as? [String: Any])?["beaconLatency"] as? [String: Any])
        #expect(latency["count"] as? Int == beacons.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) })
    }

    /// `--pipeline 8`: the same counts, every beacon received once at the sink, over fewer connections.
    @Test func pipelined_everyBeaconExpectedSentDeliveredAndReceivedOnce() async throws {
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "300", "--concurrency", "32", "--sink-all", "--seed", "3",
                                   "--pipeline", "8", "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        _ = try Self.expectEveryBeaconCountedOnce(try report(run))
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

    /// Icons in a fleet: every session that reaches an icon's offset fires its view tracking once, and the oracle's
    /// expected count (closes before the offset fire none) matches what was sent and received.
    @Test func iconViews_areExpectedSentAndReceivedExactly() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
            .replacingOccurrences(of: "</MediaFiles>", with: """
                </MediaFiles><Icons><Icon program="AdChoices" width="20" height="20" offset="00:00:03" duration="00:00:02">
                <StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:8089/static/adchoices.png]]></StaticResource>
                <IconViewTracking><![CDATA[http://127.0.0.1:8089/icon/view?at=[ADPLAYHEAD]]]></IconViewTracking></Icon></Icons>
                """)
        let tag = try folder.write("icon.xml", text)
        let run = try await vplay(["fleet", "--vast", tag, "--sessions", "300", "--sink", "--seed", "9",
                                   "--mix", "complete:40,skip:20,close:40", "--json"] + Self.patient)
        #expect(run.status == 0, "\(run.stderr)")
        let beacons = try #require((try report(run)["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
        let views = try #require(beacons.first { $0["event"] as? String == "icon.viewTracking" })
        let sent = try #require(views["sent"] as? Int)
        #expect(sent > 0 && sent < 300, "closes before 3 s never show the icon: \(views)")
        #expect(views["expected"] as? Int == sent && views["received"] as? Int == sent, "\(views)")
    }

    @Test func threeShardsMerged_equalTheUnshardedFleet() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let common = ["fleet", "--vast", "media/demo.xml", "--sessions", "240", "--sink", "--seed", "21",
                      "--mix", "complete:60,background:20,skip:10,close:10", "--now", "2026-01-01T00:00:00Z"] + Self.patient
        let whole = try await vplay(common + ["--report", path("whole.json")])
        #expect(whole.status == 0, "\(whole.stderr)")
        for shard in 0..<3 {
            let run = try await vplay(common + ["--shard", "\(shard)/3", "--report", path("shard\(shard).json")])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merged = try await vplay(["merge", path("shard2.json"), path("shard0.json"), path("shard1.json"), "--report", path("merged.json")])
        #expect(merged.status == 0, "\(merged.stderr)")
        let a = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("whole.json")))) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("merged.json")))) as? [String: Any])
        func canonical(_ value: Any?) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys]), as: UTF8.self)
        }
        let failures = { (report: [String: Any]) in ((report["population"] as? [String: Any])?["failures"]).map { "\($0)" } ?? "none" }
        #expect(try canonical(a["population"]) == canonical(b["population"]),
                "the population of the merged shards is the whole fleet's; failures \(failures(a)) and \(failures(b))")
        #expect(try canonical(a["checks"]) == canonical(b["checks"]))
        var fleetA = try #require(a["fleet"] as? [String: Any]), fleetB = try #require(b["fleet"] as? [String: Any])
        #expect(fleetA["shards"] as? [Int] == [0] && fleetB["shards"] as? [Int] == [0, 1, 2])
        fleetA["shards"] = nil
        fleetA["shardCount"] = nil
        fleetB["shards"] = nil
        fleetB["shardCount"] = nil
        #expect(try canonical(fleetA) == canonical(fleetB))
        // Shards of different fleets, or a shard twice, do not merge.
        let twice = try await vplay(["merge", path("shard0.json"), path("shard0.json")])
        #expect(twice.status == 2 && twice.stderr.contains("shard 0 is given twice"))
        let mixed = try await vplay(["merge", path("shard0.json"), path("whole.json")])
        #expect(mixed.status == 2 && mixed.stderr.contains("not shards of one fleet"))
        // Two of three shards: not the whole fleet. It exited 0 with a warning; now 1, and the report says which
        // shard is missing, unless --allow-partial accepts it.
        let partial = try await vplay(["merge", path("shard0.json"), path("shard2.json"), "--report", path("partial.json")])
        #expect(partial.status == 1 && partial.stderr.contains("vplay: error: 2 of 3 shards merged; missing: 1"), "\(partial.stderr)")
        let partialReport = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("partial.json")))) as? [String: Any])
        #expect((partialReport["fleet"] as? [String: Any])?["missingShards"] as? [Int] == [1])
        let allowed = try await vplay(["merge", path("shard0.json"), path("shard2.json"), "--allow-partial"])
        #expect(allowed.status == 0 && allowed.stderr.contains("vplay: warning: 2 of 3 shards merged"), "\(allowed.stderr)")
        #expect((b["fleet"] as? [String: Any])?["missingShards"] == nil, "a complete merge has none")
    }

    /// Warnings met preparing the fleet are in its report (they used to be gathered and dropped), once each, and a
    /// merge keeps them.
    @Test func warnings_areReported_andKeptByMerge() async throws {
        let folder = try TemporaryFolder()
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:20.000</Duration>")
            .replacingOccurrences(of: "clip-10s-360p.mp4", with: Repo.media("clip-10s-360p.mp4"))
        let path = try folder.write("ad.xml", tag)
        var reports: [String] = []
        for shard in ["0/2", "1/2"] {
            let report = folder.url.appendingPathComponent("shard-\(shard.first!).json").path
            let run = try await vplay(["fleet", "--vast", path, "--sessions", "4", "--dry-run", "--shard", shard, "--report", report])
            #expect(run.status == 0, "\(run.stderr)")
            reports.append(report)
        }
        let shard = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports[0]))) as? [String: Any])
        let expected = ["VAST <Duration> 00:00:20.000 differs from the media's 00:00:10.000 by more than 1 s; quartiles use the media's"]
        #expect(shard["warnings"] as? [String] == expected)
        let merged = folder.url.appendingPathComponent("fleet.json").path
        let run = try await vplay(["merge"] + reports + ["--report", merged])
        #expect(run.status == 0, "\(run.stderr)")
        let whole = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: merged))) as? [String: Any])
        #expect(whole["warnings"] as? [String] == expected)
    }

    @Test func noAd_isAnAdError_beforeAnySessionPlays() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("noad.xml", #"<VAST version="4.1"></VAST>"#)
        let run = try await vplay(["fleet", "--vast", tag, "--sessions", "10", "--dry-run"])
        #expect(run.status == 3)
        #expect(run.stderr.contains("vplay: error: the fleet cannot play: VAST 303"))
    }
}

/// `fleet --network-mix`: viewers on simulated networks, over real HTTP to the sink. The oracle predicts the stalls,
/// the refused skips they cause and the 402s of a network too slow to load the media in time; expected, sent and
/// received agree; the report says per network how many viewers reached each quartile.
@Suite(.hangLimit) struct FleetNetworkTests {
    @Test func networkMix_isPredictedExactly_andReportedPerNetwork() async throws {
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "300", "--sink", "--seed", "3", "--json",
                                   "--mix", "complete:40,background:10,pause:10,click:10,skip:15,close:15",
                                   "--network-mix", "wifi:40,kbps=150/rtt=100:40,offline:20"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["sentAsExpected"] as? Bool == true && checks["receivedAsSent"] as? Bool == true)
        let population = try #require(report["population"] as? [String: Any])
        let networks = try #require(population["networks"] as? [String: [String: Any]])
        #expect(Set(networks.keys) == ["wifi", "kbps=150,rtt=100", "offline"])
        let offline = try #require(networks["offline"]), slow = try #require(networks["kbps=150,rtt=100"]), wifi = try #require(networks["wifi"])
        #expect(offline["failedToLoad"] as? Int == offline["sessions"] as? Int && (offline["sessions"] as? Int ?? 0) > 0)
        #expect((slow["sessionsThatStalled"] as? Int ?? 0) > 0 && wifi["sessionsThatStalled"] as? Int == 0)
        let sessions = networks.values.compactMap { $0["sessions"] as? Int }.reduce(0, +)
        #expect(sessions == 300)
        let beacons = try #require(population["beacons"] as? [[String: Any]])
        let errors = try #require(beacons.first { $0["event"] as? String == "error" })
        #expect(errors["expected"] as? Int == offline["sessions"] as? Int && errors["sent"] as? Int == offline["sessions"] as? Int,
                "each offline viewer fires the ad's Error URL with 402: \(errors)")
        #expect((report["fleet"] as? [String: Any])?["networkMix"] as? String == "wifi:40,kbps=150/rtt=100:40,offline:20")
    }
}
