import Primitives
import Foundation
import Testing
import TestSupport

/// The beacon log and HAR files, over real HTTP, and what survives an interruption.
@Suite struct OutputFilesTests {
    /// A loopback server with a file for every path the demo tag's beacons request.
    static func demoServer(_ folder: TemporaryFolder) throws -> ScriptedHTTPServer {
        for name in ["loaded", "impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress", "closeLinear", "pause", "resume", "mute"] {
            _ = try folder.write(name, "")
        }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("endcard"), withIntermediateDirectories: true)
        _ = try folder.write("endcard/view", "")
        return try ScriptedHTTPServer(files: folder.url.path)
    }

    static func demoTag(_ folder: TemporaryFolder, beaconBase: String) throws -> String {
        let tag = try DemoTags.text(beaconBase: beaconBase)
        return try folder.write("tag.xml", tag)
    }

    @Test func beaconsAndHAR_overRealHTTP_recordEveryAttemptAndParse() async throws {
        let folder = try TemporaryFolder()
        let server = try Self.demoServer(folder)
        defer { server.stop() }
        let tag = try Self.demoTag(folder, beaconBase: server.baseURL)
        let log = folder.url.appendingPathComponent("beacons.jsonl").path, har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", tag, "--json", "--beacons", log, "--har", har, "--now", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12)
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.allSatisfy { $0["status"] as? Int == 200 && $0["delivered"] as? Bool == true && $0["sentAt"] is String })
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        #expect(entries.count == 12)
        #expect(entries.allSatisfy { ($0["response"] as? [String: Any])?["status"] as? Int == 200 })
        #expect(entries.allSatisfy { (($0["request"] as? [String: Any])?["url"] as? String)?.hasPrefix(server.baseURL + "/") == true })
        // The file server answers its empty files (no extension) as application/octet-stream, as Python's http.server
        // did: the real header, not a made-up GIF.
        #expect(entries.allSatisfy { (($0["response"] as? [String: Any])?["content"] as? [String: Any])?["mimeType"] as? String == "application/octet-stream" })
        #expect(server.requests().count == 12)
    }

    @Test func endpointDown_exit5OnlyWithFailOnBeaconErrors_andTheLogSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demoTag(folder, beaconBase: "http://127.0.0.1:1")
        let log = folder.url.appendingPathComponent("beacons.jsonl").path
        // The default 5 s timeout: a refused connection must fail at once, not after it.
        let lenient = try await vplay(["--vast", tag, "--json", "--beacons", log])
        #expect(lenient.status == 0)
        let strict = try await vplay(["--vast", tag, "--json", "--fail-on-beacon-errors"])
        #expect(strict.status == 5)
        #expect(strict.lines.last?["exitCode"] as? Int == 5)
        let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.count == 12)
        // The error names the refusal: a beacon left to its 5 s timeout would say "timed out" instead, whatever the
        // machine's speed.
        #expect(records.allSatisfy { $0["error"] as? String == "connection refused" })
        // Playback timing is the same as with a healthy endpoint.
        #expect(lenient.lines.first { $0["name"] as? String == "complete" }?["clock"] as? Double == 10.0)
    }

    @Test(.hangLimit)
    func sigint_duringARealTimeRun_writesLogsAndSummaryMarkedInterruptedAndExits130() async throws {
        let folder = try TemporaryFolder()
        let server = try Self.demoServer(folder)
        defer { server.stop() }
        let tag = try Self.demoTag(folder, beaconBase: server.baseURL)
        let log = folder.url.appendingPathComponent("beacons.jsonl").path, har = folder.url.appendingPathComponent("run.har").path
        // Real time, paused from 3 s to 120 s: however long a test process slowed by the other suites takes to look,
        // the session is still under way when it signals. It signals once the pause is out, which comes at 3 s of
        // session time however far a loaded machine's decoding lags behind (the playhead may be short of 2.5 s then,
        // so firstQuartile is not waited for).
        let running = try RunningVPlay(["--vast", tag, "--json", "--clock", "realtime", "--script", "pause@3,resume@120",
                                        "--beacons", log, "--har", har], in: folder, killAfter: .seconds(100))
        try await running.waitForOutput(containing: #""kind":"beacon","event":"pause""#)
        running.child.signal(SIGINT)
        let exit = await running.exit.value
        #expect(!exit.killed && exit.status == 130, "stderr: \(running.errors)")
        let lines = try String(contentsOf: running.stdout, encoding: .utf8).split(separator: "\n")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(summary["kind"] as? String == "summary" && summary["outcome"] as? String == "interrupted" && summary["exitCode"] as? Int == 130)
        #expect(!lines.contains { $0.contains(#""name":"complete""#) })
        let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(logged.count >= 4 && logged.contains { $0.contains(#""event":"pause""#) }, "impression, creativeView, start and pause at least")
        let harData = try Data(contentsOf: URL(fileURLWithPath: har))
        let root = try #require(try JSONSerialization.jsonObject(with: harData) as? [String: Any])
        #expect((root["log"] as? [String: Any])?["comment"] as? String == "interrupted: the session was stopped by a signal")
        _ = try await HARValidation.validate(harData)
    }
}
