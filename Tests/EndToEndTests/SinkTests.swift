import Foundation
import Testing
import TestSupport

/// `--sink`: every beacon of the demo over real HTTP to vplay's own sink, reconciled; faults and retries.
@Suite struct SinkTests {
    func beacons(_ run: Invocation) -> [[String: Any]] { run.lines.filter { $0["kind"] as? String == "beacon" } }
    func reconciliation(_ run: Invocation) throws -> [String: Any] {
        try #require(run.lines.first { $0["kind"] as? String == "reconciliation" })
    }

    @Test func demoWithSink_everyBeaconArrivesOnceWithExactMacroValues() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--json", "--seed", "1", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try reconciliation(run)
        #expect(result["sent"] as? Int == 12 && result["received"] as? Int == 12 && result["matched"] as? Int == 12)
        #expect((result["missing"] as? [Any])?.isEmpty == true && (result["unexpected"] as? [Any])?.isEmpty == true)
        let sent = beacons(run)
        #expect(sent.allSatisfy { $0["status"] as? Int == 200 })
        let midpoint = try #require(sent.first { $0["event"] as? String == "midpoint" })
        #expect(midpoint["url"] as? String == "http://127.0.0.1:8089/midpoint?pos=00%3A00%3A05.000&cb=68060533")
        let impression = try #require(sent.first { $0["event"] as? String == "impression" })
        #expect(impression["url"] as? String == "http://127.0.0.1:8089/impression?ad=vplay-demo-001&cb=66428519&ts=2026-01-01T00%3A00%3A00.000%2B00%3A00")
        let summary = try #require(run.lines.last)
        #expect((summary["sink"] as? [String: Any])?["matched"] as? Int == 12)
    }

    @Test func faults_500SlowAndReset_areLoggedWithTheirReason_playbackTimingUnchanged_exit5WhenAsked() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--json", "--beacon-timeout", "0.3", "--fail-on-beacon-errors",
                                   "--sink-fault", "500@/midpoint", "--sink-fault", "delay=2s@/start", "--sink-fault", "reset@/complete"])
        #expect(run.status == 5)
        let sent = beacons(run)
        func beacon(_ event: String) -> [String: Any]? { sent.first { $0["event"] as? String == event } }
        #expect(beacon("midpoint")?["status"] as? Int == 500 && beacon("midpoint")?["error"] as? String == "HTTP 500")
        #expect(beacon("start")?["status"] is NSNull && beacon("start")?["error"] as? String == "timed out")
        #expect(beacon("complete")?["status"] is NSNull && beacon("complete")?["error"] as? String == "connection reset")
        let events = run.lines.filter { $0["kind"] as? String == "event" }
        for (name, time) in [("start", 0.0), ("midpoint", 5.0), ("complete", 10.0)] {
            #expect(events.first { $0["name"] as? String == name }?["clock"] as? Double == time, "\(name)")
        }
        // The requests did reach the sink (the server saw them even when the client got no good answer).
        #expect(try reconciliation(run)["matched"] as? Int == 12)
        #expect(run.lines.last?["exitCode"] as? Int == 5)
    }

    @Test func retries_500Then200_endsWithExactlyOneSuccess() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--json", "--retries", "2", "--sink-fault", "500x1@/midpoint"])
        #expect(run.status == 0)
        let midpoints = beacons(run).filter { $0["event"] as? String == "midpoint" }
        #expect(midpoints.compactMap { $0["status"] as? Int } == [500, 200])
        #expect(midpoints.compactMap { $0["attempt"] as? Int } == [1, 2])
        #expect(midpoints.filter { $0["status"] as? Int == 200 }.count == 1)
        #expect(try reconciliation(run)["received"] as? Int == 13, "12 beacons, one of them twice")
        #expect((run.lines.last?["beacons"] as? [String: Any])?["failed"] as? Int == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func sinkCommand_recordsHitsAndStopsOnSIGINT() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("hits.jsonl").path
        let errURL = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.vplayBinary)
        process.arguments = ["sink", "--port", "0", "--log", log, "--fault", "404@/gone"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errURL)
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        var port: Int?
        while port == nil {
            let text = try String(contentsOf: errURL, encoding: .utf8)
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) { port = Int(text[range].split(separator: ":")[1]) }
            try await Task.sleep(for: .milliseconds(20))
        }
        let load = try await vplay(["beacon-load", "--url", "http://127.0.0.1:\(port!)/ok?cb=[CACHEBUSTING]", "--count", "50", "--json"])
        #expect(load.status == 0)
        #expect(load.lines.first?["delivered"] as? Int == 50)
        let gone = try await vplay(["beacon-load", "--url", "http://127.0.0.1:\(port!)/gone", "--count", "1", "--json"])
        #expect(gone.status == 5 && gone.lines.first?["failed"] as? Int == 1)
        kill(process.processIdentifier, SIGINT)
        var status: Int32 = -1
        for await code in exited.stream { status = code; break }
        #expect(status == 0)
        let hits = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(hits.count == 51)
        #expect(hits.last?.contains(#""status":404"#) == true)
    }
}
