import Foundation
import Testing
import TestSupport

/// Issue 20: `vplay audit` on a realistic capture — the repo's demo tag played by vplay in real time through its sink,
/// recorded as a HAR and a beacon log — audited clean, and the same capture edited to hold each defect (a missing
/// midpoint, a doubled start, bunched quartiles, a wrong playhead, complete before thirdQuartile, an error without a
/// code) audited with the right finding.
@Suite(.timeLimit(.minutes(3))) struct AuditTests {
    /// One real-time play of the demo (10 s), shared by the tests: its beacons sent over HTTP to a `vplay sink --log`
    /// (a copy of the demo tag points at that sink's port), recorded three ways — the run's HAR and beacon log, and the
    /// sink's hit log — and the tag it played.
    static let capture = Task { () throws -> (har: Data, beacons: Data, sinkLog: Data, tag: String) in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let hits = folder.appendingPathComponent("hits.jsonl").path
        let sink = Process()
        sink.executableURL = URL(fileURLWithPath: Repo.vplayBinary)
        sink.arguments = ["sink", "--port", "0", "--log", hits]
        let banner = Pipe()
        sink.standardError = banner
        sink.standardOutput = FileHandle.nullDevice
        try sink.run()
        defer { kill(sink.processIdentifier, SIGKILL) }
        // A blocking read, off Swift's cooperative pool (2 threads here): the other suites keep running meanwhile.
        let reader = banner.fileHandleForReading
        let line = String(decoding: try await offThePool { reader.availableData }, as: UTF8.self)
        guard let port = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map({ String(line[$0]) }) else {
            throw CaptureError(message: "the sink did not start: \(line)")
        }
        let tag = folder.appendingPathComponent("demo.xml").path
        try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "127.0.0.1:8089", with: port)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
            .write(toFile: tag, atomically: true, encoding: .utf8)
        let har = folder.appendingPathComponent("run.har").path, beacons = folder.appendingPathComponent("beacons.jsonl").path
        // One decoder thread: the other suites run meanwhile, and a real-time run needs little.
        let run = try await vplay(["--vast", tag, "--clock", "realtime", "--threads", "1", "--har", har, "--beacons", beacons])
        guard run.status == 0 else { throw CaptureError(message: "the capture run failed: \(run.stderr)") }
        return (try Data(contentsOf: URL(fileURLWithPath: har)), try Data(contentsOf: URL(fileURLWithPath: beacons)),
                try Data(contentsOf: URL(fileURLWithPath: hits)), tag)
    }

    /// The capture's beacon log, written into `folder`.
    func beaconLog(in folder: TemporaryFolder) async throws -> String {
        try folder.write("beacons.jsonl", try await Self.capture.value.beacons)
    }

    struct CaptureError: Error { var message: String }

    /// Audits `har` (edited by `edit`) as JSON.
    func audit(_ edit: (inout [[String: Any]]) -> Void = { _ in }) async throws -> (status: Int32, report: [String: Any], stdout: String) {
        let data = try await Self.capture.value.har
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var log = try #require(root["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        edit(&entries)
        log["entries"] = entries
        root["log"] = log
        let folder = try TemporaryFolder()
        let path = try folder.write("edited.har", try JSONSerialization.data(withJSONObject: root))
        let run = try await vplay(["audit", "--vast", try await Self.capture.value.tag, "--har", path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        return (run.status, report, run.stdout)
    }

    static func url(_ entry: [String: Any]) -> String { (entry["request"] as? [String: Any])?["url"] as? String ?? "" }
    static func index(_ entries: [[String: Any]], _ path: String) -> Int? { entries.firstIndex { url($0).contains(path) } }

    func verdict(_ report: [String: Any], _ event: String) -> String? {
        (report["trackers"] as? [[String: Any]])?.first { $0["event"] as? String == event }?["verdict"] as? String
    }
    func failed(_ report: [String: Any]) -> [String] {
        ((report["findings"] as? [[String: Any]]) ?? []).filter { $0["passed"] as? Bool == false && $0["warning"] as? Bool == false }.compactMap { $0["check"] as? String }
    }

    @Test func theDemoPlayedInRealTime_isAuditedClean_fromItsHARAndItsBeaconLog() async throws {
        let clean = try await audit()
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.report["passed"] as? Bool == true && clean.report["matched"] as? Int == clean.report["requests"] as? Int)
        let checks = ((clean.report["findings"] as? [[String: Any]]) ?? []).compactMap { $0["check"] as? String }
        #expect(checks.contains("timing.midpoint") && checks.contains("timing.duration") && checks.contains("playhead.midpoint"), "\(checks)")
        let logFolder = try TemporaryFolder()
        let beacons = try await beaconLog(in: logFolder)
        let tag = try await Self.capture.value.tag
        let fromLog = try await vplay(["audit", "--vast", tag, "--beacons", beacons])
        #expect(fromLog.status == 0, "\(fromLog.stdout)")
        let hits = try logFolder.write("hits.jsonl", try await Self.capture.value.sinkLog)
        let fromSink = try await vplay(["audit", "--vast", tag, "--log", hits])
        #expect(fromSink.status == 0, "\(fromSink.stdout)")
        #expect(fromSink.stdout.contains("audit: 12 requests, 12 matched"), "\(fromSink.stdout)")
    }

    @Test func aMissingMidpoint_andADoubledStart_areFound() async throws {
        let missing = try await audit { entries in entries.remove(at: Self.index(entries, "/midpoint?")!) }
        #expect(missing.status == 1 && verdict(missing.report, "midpoint") == "missing")
        let doubled = try await audit { entries in entries.append(entries[Self.index(entries, "/start?")!]) }
        #expect(doubled.status == 1 && verdict(doubled.report, "start") == "duplicated")
    }

    @Test func bunchedQuartiles_andCompleteBeforeThirdQuartile_areFound() async throws {
        // A player that fires every quartile when the video completes.
        let bunched = try await audit { entries in
            let complete = entries[Self.index(entries, "/complete?")!]["startedDateTime"] as! String
            for path in ["/firstQuartile?", "/midpoint?", "/thirdQuartile?"] { entries[Self.index(entries, path)!]["startedDateTime"] = complete }
        }
        #expect(bunched.status == 1)
        #expect(failed(bunched.report) == ["timing.firstQuartile", "timing.midpoint", "timing.thirdQuartile", "timing.bunched"], "\(failed(bunched.report))")
        let swapped = try await audit { entries in
            let third = Self.index(entries, "/thirdQuartile?")!, complete = Self.index(entries, "/complete?")!
            let time = entries[third]["startedDateTime"]
            entries[third]["startedDateTime"] = entries[complete]["startedDateTime"]
            entries[complete]["startedDateTime"] = time
        }
        #expect(swapped.status == 1 && failed(swapped.report).contains("order.complete"), "\(failed(swapped.report))")
    }

    @Test func aWrongPlayhead_anErrorWithoutACode_andStrayRequests() async throws {
        let wrong = try await audit { entries in
            let index = Self.index(entries, "/midpoint?")!
            var request = entries[index]["request"] as! [String: Any]
            request["url"] = (request["url"] as! String).replacingOccurrences(of: "pos=00%3A00%3A05.000", with: "pos=00%3A00%3A08.000")
            entries[index]["request"] = request
        }
        #expect(wrong.status == 1 && failed(wrong.report) == ["playhead.midpoint"], "\(failed(wrong.report))")
        let error = try await audit { entries in
            var entry = entries[0]
            var request = entry["request"] as! [String: Any]
            request["url"] = "http://127.0.0.1:8089/error?code=[ERRORCODE]&pos=-1&cb=1"
            entry["request"] = request
            entries.append(entry)
            var stray = entries[0]
            var strayRequest = stray["request"] as! [String: Any]
            strayRequest["url"] = "http://127.0.0.1:8089/unknown-pixel?x=1"
            stray["request"] = strayRequest
            entries.append(stray)
        }
        #expect(error.status == 1 && failed(error.report) == ["errorcode"], "\(failed(error.report))")
        let unmatched = (error.report["unmatched"] as? [[String: Any]])?.compactMap { $0["url"] as? String }
        #expect(unmatched == ["http://127.0.0.1:8089/unknown-pixel?x=1"], "listed, not failed")
        #expect(((error.report["findings"] as? [[String: Any]]) ?? []).contains { $0["check"] as? String == "macros" && $0["warning"] as? Bool == true })
    }

    @Test func outputs_junitTimelineAndReport_andUsageErrors() async throws {
        let folder = try TemporaryFolder()
        let beacons = try await beaconLog(in: folder)
        let junit = folder.url.appendingPathComponent("a.xml").path, svg = folder.url.appendingPathComponent("a.svg").path
        let report = folder.url.appendingPathComponent("a.json").path
        let run = try await vplay(["audit", "--vast", try await Self.capture.value.tag, "--beacons", beacons, "--junit", junit, "--timeline", svg, "--report", report])
        #expect(run.status == 0)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="0""#) && xml.contains(#"name="timing.midpoint""#))
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<circle"))
        #expect((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])?["kind"] as? String == "audit")
        let none = try await vplay(["audit", "--vast", "media/demo.xml"])
        #expect(none.status == 2)
        let garbage = try folder.write("bad.har", "not json")
        #expect(try await vplay(["audit", "--vast", "media/demo.xml", "--har", garbage]).status == 2)
        // A hostile capture: URLs over 16 KiB are not matched (the macro patterns would take more than linear time on a
        // megabyte), only listed, shortened.
        let long = "http://127.0.0.1:8089/midpoint?pos=" + String(repeating: "a", count: 20_000) + "&cb=1"
        let entries = Array(repeating: #"{"startedDateTime":"2026-01-01T00:00:00Z","request":{"method":"GET","url":"\#(long)"}}"#, count: 3)
        let hostile = try folder.write("hostile.har", #"{"log":{"entries":["# + entries.joined(separator: ",") + "]}}")
        let judged = try await vplay(["audit", "--vast", "media/demo.xml", "--har", hostile])
        #expect(judged.status == 1 && judged.stdout.contains("MISSING") && judged.stdout.count < 10_000 && judged.stdout.contains("unmatched"))
    }

    /// A HAR as a browser's dev tools write it: `pages`, entries with a `pageref`, a beacon answered with a redirect
    /// and the redirect's own entry (to a host the plan does not name: not tracking, not listed).
    @Test func aDevToolsHAR_withPagesAndRedirects_isRead() async throws {
        let data = try await Self.capture.value.har
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var log = try #require(root["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        log["pages"] = [["id": "page_1", "title": "app", "startedDateTime": entries.first?["startedDateTime"] ?? "", "pageTimings": [String: Any]()]]
        let impression = Self.index(entries, "/impression?")!
        entries[impression]["pageref"] = "page_1"
        var response = entries[impression]["response"] as? [String: Any] ?? [:]
        response["status"] = 302
        response["redirectURL"] = "https://cdn.example.net/1x1.gif"
        entries[impression]["response"] = response
        var hop = entries[impression]
        hop["request"] = ["method": "GET", "url": "https://cdn.example.net/1x1.gif", "httpVersion": "HTTP/1.1", "headers": [Any](), "queryString": [Any](),
                          "cookies": [Any](), "headersSize": -1, "bodySize": 0]
        entries.insert(hop, at: impression + 1)
        log["entries"] = entries
        root["log"] = log
        let folder = try TemporaryFolder()
        let path = try folder.write("devtools.har", try JSONSerialization.data(withJSONObject: root))
        let run = try await vplay(["audit", "--vast", try await Self.capture.value.tag, "--har", path])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("13 requests, 12 matched") && !run.stdout.contains("unmatched"), "\(run.stdout)")
    }
}
