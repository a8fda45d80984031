import AdSession
import Foundation
import Primitives
import Testing
import TestSupport

/// Issue 20, what only processes show: a realistic capture — the repo's demo tag played by the binary in real time
/// through `vplay sink`, recorded as a HAR, a beacon log and the sink's log — audited clean against the lateness that
/// run had; and `vplay audit`'s report, JUnit and SVG outputs, exit codes and usage errors. The audit's judgements of
/// each defect, a browser's HAR with pages and redirects and a hostile capture are tested in process on fixed
/// captures (`SessionBehaviourTests/AuditBehaviourTests`).
@Suite(.hangLimit) struct AuditTests {
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
        try sink.runAlone()
        defer { kill(sink.processIdentifier, SIGKILL) }
        // A blocking read, off Swift's cooperative pool (2 threads here): the other suites keep running meanwhile.
        let reader = banner.fileHandleForReading
        let line = String(decoding: try await offThePool { reader.availableData }, as: UTF8.self)
        guard let port = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map({ String(line[$0]) }) else {
            throw CaptureError(message: "the sink did not start: \(line)")
        }
        let tag = folder.appendingPathComponent("demo.xml").path
        try DemoTags.text()
            .replacingOccurrences(of: "127.0.0.1:8089", with: port)
            .write(toFile: tag, atomically: true, encoding: .utf8)
        let har = folder.appendingPathComponent("run.har").path, beacons = folder.appendingPathComponent("beacons.jsonl").path
        // One decoder thread: the other suites run meanwhile, and a real-time run needs little.
        let run = try await vplay(["--vast", tag, "--clock", "realtime", "--threads", "1", "--har", har, "--beacons", beacons])
        guard run.status == 0 else { throw CaptureError(message: "the capture run failed: \(run.stderr)") }
        return (try Data(contentsOf: URL(fileURLWithPath: har)), try Data(contentsOf: URL(fileURLWithPath: beacons)),
                try Data(contentsOf: URL(fileURLWithPath: hits)), tag)
    }

    /// A perfect player's capture of the repo's demo tag, as a HAR: every beacon a session fires, sent at its exact
    /// session time (made in process by the session kit). Fixed times: a verdict on it does not depend on the machine.
    /// The demo as a perfect player captures it (`SessionKit.perfectPlayerHAR`), made once for the suite.
    static let fixed = Task { try await SessionKit().perfectPlayerHAR() }

    struct CaptureError: Error { var message: String }

    static func url(_ entry: [String: Any]) -> String { (entry["request"] as? [String: Any])?["url"] as? String ?? "" }
    static func index(_ entries: [[String: Any]], _ path: String) -> Int? { entries.firstIndex { url($0).contains(path) } }

    /// How late `capture` (url, ms since 1970) is against the session clock the run's own beacon log recorded for
    /// the same URLs: the most any request's time since the first one differs from its clock since the first one's.
    /// The audit of that capture is judged with twice this (any two requests) on top of its 1 s tolerance, so a run
    /// made late by a busy machine is judged against the lateness it actually had, not against the machine's speed.
    func lateness(_ capture: [(url: String, at: Int64)]) async throws -> Double {
        var clocks: [String: Double] = [:]
        for line in try await Self.capture.value.beacons.split(separator: UInt8(ascii: "\n")) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], object["finalAttempt"] as? Bool != false,
                  let url = object["url"] as? String, let clock = object["clock"] as? Double else { continue }
            clocks[url] = clock
        }
        let timed = capture.compactMap { entry in clocks[entry.url].map { (clock: $0, at: Double(entry.at) / 1000) } }
        try #require(timed.count == capture.count, "every captured URL is in the run's beacon log")
        let first = try #require(timed.min { $0.clock < $1.clock })
        return timed.map { abs(($0.at - first.at) - ($0.clock - first.clock)) }.max() ?? 0
    }

    /// The demo played in real time, captured three ways, audited clean: each capture against the lateness that run
    /// had (the audit's timing checks themselves are tested on fixed captures, `AuditBehaviourTests`).
    /// Only the binary in real time through a separate `vplay sink` makes these captures: HAR, beacon log, sink log.
    @Test func theDemoPlayedInRealTime_isAuditedClean_fromItsHAR_itsBeaconLog_andTheSinksLog() async throws {
        let capture = try await Self.capture.value
        let har = try #require(try JSONSerialization.jsonObject(with: capture.har) as? [String: Any])
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let harTimes = entries.map { (url: Self.url($0), at: ISO8601Time.milliseconds($0["startedDateTime"] as? String ?? "") ?? 0) }
        let harLate = try await lateness(harTimes)
        let folder = try TemporaryFolder()
        // Each file read as `vplay audit` reads it (`CapturedRequest.read`) and judged in process against the tag's
        // inspection, with the tolerance the run's own lateness gives (the audit's rendering and exit codes are
        // `outputs_junitTimelineAndReport_andUsageErrors`).
        var configuration = SessionConfiguration(tag: capture.tag)
        configuration.dryRun = true
        let inspection = await AdInspector(configuration: configuration).inspect(openMedia: true)
        func audit(_ data: Data, _ name: String, _ format: CapturedRequest.Format, late: Double) throws -> BeaconAudit {
            let requests = try CapturedRequest.read(try folder.write(name, data), format: format)
            return BeaconAudit(inspection: inspection, requests: requests, tolerance: 1 + 2 * late)
        }
        let fromHAR = try audit(capture.har, "run.har", .har, late: harLate)
        #expect(fromHAR.passed && fromHAR.matched.count == 12, "late by up to \(harLate) s: \(fromHAR.findings.filter { !$0.passed })")
        let checks = fromHAR.findings.map(\.check)
        #expect(checks.contains("timing.midpoint") && checks.contains("timing.duration") && checks.contains("playhead.midpoint"), "\(checks)")
        // The beacon log holds the same send times as the HAR.
        let fromLog = try audit(capture.beacons, "beacons.jsonl", .beacons, late: harLate)
        #expect(fromLog.passed && fromLog.matched.count == 12, "\(fromLog.findings.filter { !$0.passed })")
        // The sink's log: when each request arrived.
        var hits: [(url: String, at: Int64)] = []
        for line in capture.sinkLog.split(separator: UInt8(ascii: "\n")) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let target = object["target"] as? String,
                  let at = (object["receivedAtMilliseconds"] as? NSNumber)?.int64Value else { continue }
            hits.append(("http://\(object["host"] as? String ?? "127.0.0.1")\(target)", at))
        }
        let sinkLate = try await lateness(hits)
        let fromSink = try audit(capture.sinkLog, "hits.jsonl", .sinkLog, late: sinkLate)
        #expect(fromSink.passed && fromSink.matched.count == 12, "late by up to \(sinkLate) s: \(fromSink.findings.filter { !$0.passed })")
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Only a process shows the files audit writes and its usage errors (2: no capture, a capture that is not one).
    @Test func outputs_junitTimelineAndReport_andUsageErrors() async throws {
        let folder = try TemporaryFolder()
        let har = try folder.write("fixed.har", try await Self.fixed.value)
        let junit = folder.url.appendingPathComponent("a.xml").path, svg = folder.url.appendingPathComponent("a.svg").path
        let report = folder.url.appendingPathComponent("a.json").path
        let run = try await vplay(["audit", "--vast", "media/demo.xml", "--har", har, "--junit", junit, "--timeline", svg, "--report", report])
        #expect(run.status == 0)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="0""#) && xml.contains(#"name="timing.midpoint""#))
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<circle"))
        #expect((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])?["kind"] as? String == "audit")
        let none = try await vplay(["audit", "--vast", "media/demo.xml"])
        #expect(none.status == 2)
        let garbage = try folder.write("bad.har", "not json")
        #expect(try await vplay(["audit", "--vast", "media/demo.xml", "--har", garbage]).status == 2)
    }
}
