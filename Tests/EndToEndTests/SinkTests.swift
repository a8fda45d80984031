import Foundation
import Primitives
import Testing
import TestSupport

/// `--sink` and `vplay sink` through the binary: every beacon of the demo over real HTTP to vplay's own sink,
/// reconciled in its output; a beacon log and HAR at session end; the sink command serving media and hits. Faults and
/// retries of the embedded sink are `SinkBehaviourTests`, in process.
@Suite struct SinkTests {
    func beacons(_ run: Invocation) -> [[String: Any]] { run.lines.filter { $0["kind"] as? String == "beacon" } }
    func reconciliation(_ run: Invocation) throws -> [String: Any] {
        try #require(run.lines.first { $0["kind"] as? String == "reconciliation" })
    }

    /// Only the binary with its embedded sink shows every beacon received over loopback HTTP, reconciled on stdout.
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

    /// Concurrency 1, a sink that never answers and a 100 s beacon timeout: the first beacon (`loaded`) is on the wire
    /// when the 0.5 s drain ends, and the eleven behind it never leave, however fast or slow the machine (the session
    /// would have to take 100 s for a second one to go out). Only what was sent is a request in the HAR and the
    /// reconciliation. Which beacons are cut off at which network time is `BeaconDrainTests`, on a manual clock.
    /// Only a process shows the beacon log and HAR it writes at session end against a real sink that never answers.
    @Test(.hangLimit)
    func sessionEnd_beaconsNeverSent_areMarkedAndLeftOutOfTheHARAndTheReconciliation() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("beacons.jsonl").path, har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--json", "--sink-fault", "hang@*", "--beacon-concurrency", "1",
                                   "--beacon-timeout", "100", "--beacon-drain", "0.5", "--beacons", log, "--har", har])
        let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.count == 12, "one final record per beacon")
        let sent = records.filter { $0["sentAt"] is String }
        let notSent = records.filter { $0["sentAt"] is NSNull }
        #expect(sent.map { $0["event"] as? String } == ["loaded"] && sent.first?["error"] as? String == "unanswered at session end")
        #expect(notSent.count == 11 && notSent.allSatisfy { $0["error"] as? String == "not sent before session end" && $0["attempt"] as? Int == 1 })
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        #expect(entries.count == 1, "a beacon never sent is not a request")
        let result = try reconciliation(run)
        #expect(result["sent"] as? Int == 1)
        // The attempt cut off by the drain may, on a machine busy enough to hold it for the whole 0.5 s, be cancelled
        // before its request reached the sink: it is then missing, with its error.
        let received = try #require(result["received"] as? Int)
        let missing = (result["missing"] as? [[String: Any]]) ?? []
        #expect((received == 1 && missing.isEmpty) || (received == 0 && missing.map { $0["error"] as? String } == ["unanswered at session end"]),
                "\(result)")
    }

    /// Starts `vplay sink --port 0 ARGUMENTS` and waits until it says which port it listens on; a sink that exits
    /// first fails the test at once instead of leaving it to spin until its time limit.
    static func startSink(_ folder: TemporaryFolder, _ arguments: [String]) async throws
        -> (process: Process, exited: AsyncStream<Int32>, port: Int) {
        let errURL = folder.url.appendingPathComponent("sink-stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = LeakSanitizer.ignore(Process())
        process.executableURL = URL(fileURLWithPath: Repo.vplayBinary)
        process.arguments = ["sink", "--port", "0"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errURL)
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.runAlone()
        while true {
            let text = try String(contentsOf: errURL, encoding: .utf8)
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression), let port = Int(text[range].split(separator: ":")[1]) {
                return (process, exited.stream, port)
            }
            try #require(process.isRunning, "vplay sink exited before listening: \(text)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The User-Agent header and `[DEVICEUA]` are one setting: `--macro DEVICEUA=…` changes both.
    /// Only the binary against `vplay sink` as a separate process shows the User-Agent header as it arrived.
    @Test(.hangLimit)
    func deviceUAMacro_setsTheUserAgentHeaderToo() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("hits.jsonl").path
        let (process, exited, port) = try await Self.startSink(folder, ["--log", log])
        let tag = try DemoTags.text()
            .replacingOccurrences(of: "http://127.0.0.1:8089/impression?ad=vplay-demo-001", with: "http://127.0.0.1:\(port)/impression?ua=[DEVICEUA]")
            .replacingOccurrences(of: "http://127.0.0.1:8089", with: "http://127.0.0.1:\(port)")
        let run = try await vplay(["--vast", try folder.write("tag.xml", tag), "--json", "--macro", "DEVICEUA=Tester/2.0 (sim)"])
        kill(process.processIdentifier, SIGINT)
        for await _ in exited { break }
        #expect(run.status == 0, "\(run.stderr)")
        let hits = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(hits.count == 12)
        #expect(hits.allSatisfy { $0["userAgent"] as? String == "Tester/2.0 (sim)" })
        #expect(hits.contains { ($0["target"] as? String)?.hasPrefix("/impression?ua=Tester%2F2.0%20%28sim%29&") == true })
    }

    /// `vplay sink --media DIR --fault rate=…`: a tag whose MediaFile points at the sink plays completely through
    /// FFmpeg, the media arrives no faster than the rate (a lower bound only), and every media request is a hit with
    /// its fault.
    /// Only `vplay sink` as a separate process shows FFmpeg's reads throttled and logged, and exit 0 on SIGINT.
    @Test(.hangLimit)
    func sinkCommand_servesMediaThroughARateFault_andFFmpegPlaysIt() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("hits.jsonl").path
        let (process, exited, port) = try await Self.startSink(folder, ["--log", log, "--media", Repo.media(""), "--fault", "rate=128k@/media/*"])
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "http://127.0.0.1:\(port)/media/clip-10s-360p.mp4")
        let began = ContinuousClock.now
        let run = try await vplay(["--vast", try folder.write("tag.xml", tag), "--dry-run", "--json"])
        let elapsed = ContinuousClock.now - began
        kill(process.processIdentifier, SIGINT)
        var status: Int32 = -1
        for await code in exited { status = code; break }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(status == 0)
        let events = run.lines.filter { $0["kind"] as? String == "event" }.compactMap { $0["name"] as? String }
        #expect(events.contains("complete"), "\(events)")
        let hits = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let media = hits.filter { ($0["path"] as? String) == "/media/clip-10s-360p.mp4" }
        #expect(!media.isEmpty)
        #expect(media.allSatisfy { [200, 206].contains($0["status"] as? Int) && $0["fault"] as? String == "rate=131072@/media/*" }, "\(media)")
        // 279,185 bytes at 131,072 B/s is 2.1 s if FFmpeg reads the file once; allow for reads it skips.
        let size = try FileManager.default.attributesOfItem(atPath: Repo.media("clip-10s-360p.mp4"))[.size] as? Int ?? 0
        #expect(size > 200_000 && elapsed >= .milliseconds(1_500), "\(elapsed)")
        print("vplay over vplay sink --media at rate=128k: \(elapsed), \(media.count) media request(s): \(media.map { $0["range"] ?? "none" })")
    }

    @Test(.hangLimit)
    func sinkCommand_recordsHitsAndStopsOnSIGINT() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("hits.jsonl").path
        let (process, exited, port) = try await Self.startSink(folder, ["--log", log, "--fault", "404@/gone"])
        let load = try await vplay(["beacon-load", "--url", "http://127.0.0.1:\(port)/ok?cb=[CACHEBUSTING]", "--count", "50", "--json"])
        #expect(load.status == 0)
        #expect(load.lines.first?["delivered"] as? Int == 50)
        let gone = try await vplay(["beacon-load", "--url", "http://127.0.0.1:\(port)/gone", "--count", "1", "--json"])
        #expect(gone.status == 5 && gone.lines.first?["failed"] as? Int == 1)
        kill(process.processIdentifier, SIGINT)
        var status: Int32 = -1
        for await code in exited { status = code; break }
        #expect(status == 0)
        let hits = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(hits.count == 51)
        #expect(hits.last?.contains(#""status":404"#) == true)
    }
}
