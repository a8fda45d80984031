import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 42, item 2 end to end: the built binary plays a stream by a stitcher's client-side tracking document served
/// over loopback by a real HTTP server (polled, MediaTailor's `nextToken` sent back), fires every timed beacon to
/// that server at the document's times, and reports each avail; the bundled demo to the embedded sink.
@Suite(.hangLimit) struct TrackedStreamTests {
    static func avail(_ id: String, start: Double, duration: Double, base: String) -> String {
        let events = [("impression", 0.0), ("start", 0.0), ("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)].map { type, share in
            """
            {"eventId": "\(id)-\(type)", "eventType": "\(type)", "startTimeInSeconds": \(start + duration * share), "durationInSeconds": 0,
             "beaconUrls": ["\(base)/\(id)/\(type)?ap=[ADPLAYHEAD]&cp=[CONTENTPLAYHEAD]"]}
            """
        }
        return """
            {"availId": "\(id)", "startTimeInSeconds": \(start), "durationInSeconds": \(duration),
             "adBreakTrackingEvents": [{"eventType": "breakStart", "startTimeInSeconds": \(start), "beaconUrls": ["\(base)/\(id)/breakStart?bp=[BREAKPOSITION]"]}],
             "ads": [{"adId": "\(id)", "startTimeInSeconds": \(start), "durationInSeconds": \(duration), "trackingEvents": [\(events.joined(separator: ","))]}]}
            """
    }

    @Test func aPolledDocumentOverLoopback_firesEveryTimedBeaconAtItsTime_andReportsEachAvail() async throws {
        let documents = Mutex([String: String]())
        let server = try ScriptedHTTPServer { target in
            if let body = documents.withLock({ $0[target] }) { return .body(Data(body.utf8), contentType: "application/json") }
            return .status(204)
        }
        defer { server.stop() }
        let base = server.baseURL
        documents.withLock {
            $0["/tracking"] = "{\"avails\": [\(Self.avail("pre", start: 0, duration: 8, base: base))], \"nextToken\": \"n1\"}"
            $0["/tracking?nextToken=n1"] = "{\"avails\": [\(Self.avail("pre", start: 0, duration: 8, base: base)), \(Self.avail("mid", start: 30, duration: 4, base: base))]}"
        }
        let folder = try TemporaryFolder()
        let lines = folder.url.appendingPathComponent("run.jsonl").path
        let run = try await vplay(["--tracking-doc", "\(base)/tracking", "--poll-interval", "10", "--content-duration", "40", "--json",
                                   "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        try run.stdout.write(toFile: lines, atomically: true, encoding: .utf8)
        let errors = try await JSONSchemaCheck.validate([.init(lines, schema: "events.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        #expect(Set(beacons.map { $0["status"] as? Int }) == [204], "\(beacons.prefix(2))")
        let fired = beacons.compactMap { line -> String? in
            guard let event = line["event"] as? String, let clock = line["clock"] as? Double else { return nil }
            return "\(event)@\(clock)"
        }
        #expect(fired.sorted() == ["breakStart@0.0", "breakStart@30.0", "complete@34.0", "complete@8.0", "firstQuartile@2.0", "firstQuartile@31.0",
                                   "impression@0.0", "impression@30.0", "midpoint@32.0", "midpoint@4.0", "start@0.0", "start@30.0",
                                   "thirdQuartile@33.0", "thirdQuartile@6.0"], "\(fired)")
        let targets = Set(server.requests().map(\.target))
        #expect(targets.isSuperset(of: ["/tracking", "/tracking?nextToken=n1", "/pre/breakStart?bp=1", "/mid/breakStart?bp=2",
                                        "/mid/midpoint?ap=00%3A00%3A02.000&cp=00%3A00%3A32.000"]), "\(targets.sorted())")
        let summary = try #require(run.lines.last)
        let tracking = try #require(summary["tracking"] as? [String: Any])
        #expect(tracking["polls"] as? Int == 4, "\(tracking)")
        #expect((tracking["avails"] as? [[String: Any]])?.map { $0["availId"] as? String } == ["pre", "mid"])
    }

    @Test func theDemoToTheSink_receivesEveryBeaconItSends() async throws {
        let run = try await vplay(["--tracking-doc", "media/ssai/tracking.json", "--sink", "--content-script", "background@63=2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("sink: 24 received, 24 of 24 sent matched"), "\(run.stdout)")
        #expect(run.stdout.contains("avail 2   60.000–80.000 s, 2 ad(s), events: 16 fired, 4 interaction"), "\(run.stdout)")
    }

    @Test func aDocumentThatIsNotOne_exits3_withOneLineOnStderr() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("doc.json", "{\"avails\": [{\"startTimeInSeconds\": -4, \"ads\": []}]}")
        let run = try await vplay(["--tracking-doc", path, "--dry-run"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr == "vplay: error: tracking document: avail 1: -4.0 s is not a time in a stream (0 to 86400 s)\n", "\(run.stderr)")
        let inspected = try await vplay(["inspect", "--tracking-doc", path])
        #expect(inspected.status == 3 && inspected.stderr.contains("tracking document: avail 1: -4.0 s is not a time in a stream"), "\(inspected.stderr)")
        let other = try await vplay(["fleet", "--tracking-doc", path])
        #expect(other.status == 2 && other.stderr.contains("fleet does not take a tracking document yet"), "\(other.stderr)")
    }

    @Test func inspectingADocument_listsEveryEventAndWhoFiresIt_andStrictFailsOnAWarning() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("inspect.json").path
        let run = try await vplay(["inspect", "--tracking-doc", "media/ssai/tracking.json", "--reporting", "hybrid", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        try run.stdout.write(toFile: report, atomically: true, encoding: .utf8)
        let errors = try await JSONSchemaCheck.validate([.init(report, schema: "inspect-ssai.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let avails = try #require(run.lines.first?["avails"] as? [[String: Any]])
        let events = try #require((avails[0]["ads"] as? [[String: Any]])?.first?["events"] as? [[String: Any]])
        #expect(events.map { "\($0["type"] ?? ""):\($0["firedBy"] ?? "")" }.prefix(3) == ["impression:server", "start:server", "firstQuartile:server"])
        #expect(events.contains { $0["type"] as? String == "pause" && $0["firedBy"] as? String == "viewer" })
        // A quartile off its ad's span is a warning: --strict fails on it.
        let off = try folder.write("off.json", String(decoding: try Data(contentsOf: URL(fileURLWithPath: Repo.media("ssai/tracking.json"))), as: UTF8.self)
            .replacingOccurrences(of: "\"startTimeInSeconds\": 21.592", with: "\"startTimeInSeconds\": 23.0"))
        let strict = try await vplay(["inspect", "--tracking-doc", off, "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stdout.contains("finding: VPLAY-ssai-event-time: avail 1 ad 1: firstQuartile is due at 23.0 s by the document, 21.592 s"), "\(strict.stdout)")
    }
}

/// Issue 42, item 5 end to end: `vplay audit --tracking-doc` judges a HAR of a player against the bundled demo
/// document: a perfect one passes, one that lost a quartile and fired another late fails, as JSON valid against its
/// schema and as JUnit valid against the schema CI tools read.
@Suite(.hangLimit) struct TrackedStreamAuditTests {
    /// A HAR of every beacon of `media/ssai/tracking.json` at its document time from 2026-01-01, macros filled.
    static func har(_ folder: TemporaryFolder, drop: String? = nil, late: String? = nil) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("ssai/tracking.json")))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var entries: [[String: Any]] = []
        for avail in document["avails"] as? [[String: Any]] ?? [] {
            let events = (avail["adBreakTrackingEvents"] as? [[String: Any]] ?? []) + (avail["ads"] as? [[String: Any]] ?? []).flatMap { $0["trackingEvents"] as? [[String: Any]] ?? [] }
            for event in events {
                let type = event["eventType"] as? String ?? ""
                guard ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "breakStart", "breakEnd"].contains(type),
                      (event["eventId"] as? String).map({ "\($0)" }) != drop else { continue }
                let seconds = (event["startTimeInSeconds"] as? Double ?? 0) + ((event["eventId"] as? String) == late ? 2 : 0)
                let at = Date(timeIntervalSince1970: 1_767_225_600 + seconds)
                for url in event["beaconUrls"] as? [String] ?? [] {
                    let filled = url.replacingOccurrences(of: "[ADPLAYHEAD]", with: "00%3A00%3A01.000").replacingOccurrences(of: "[CONTENTPLAYHEAD]", with: "00%3A00%3A17.817")
                        .replacingOccurrences(of: "[CACHEBUSTING]", with: "12345678").replacingOccurrences(of: "[BREAKPOSITION]", with: "2")
                    entries.append(["startedDateTime": Self.iso(at), "request": ["method": "GET", "url": filled]])
                }
            }
        }
        let har = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries]])
        return try folder.write("capture.har", String(decoding: har, as: UTF8.self))
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func aPerfectCapture_passes_andALossyLateOneFails() async throws {
        let folder = try TemporaryFolder()
        let perfect = try await vplay(["audit", "--tracking-doc", "media/ssai/tracking.json", "--har", try Self.har(folder)])
        #expect(perfect.status == 0, "\(perfect.stdout)\(perfect.stderr)")
        #expect(perfect.stdout.contains("audit: every check holds (exit 0)"), "\(perfect.stdout)")
        let report = folder.url.appendingPathComponent("audit.json").path, junit = folder.url.appendingPathComponent("audit.xml").path
        let lossy = try await vplay(["audit", "--tracking-doc", "media/ssai/tracking.json", "--har", try Self.har(folder, drop: "ssai-demo-2-midpoint", late: "ssai-demo-3-firstQuartile"),
                                     "--report", report, "--junit", junit])
        #expect(lossy.status == 1, "\(lossy.stdout)\(lossy.stderr)")
        #expect(lossy.stdout.contains("MISSING  avail 2 ad 1  midpoint"), "\(lossy.stdout)")
        #expect(lossy.stdout.contains("FAIL timing.firstQuartile [VPLAY-audit-timing]: avail 2 ad 2: firstQuartile came +2.000 s"), "\(lossy.stdout)")
        let errors = try await JSONSchemaCheck.validate([.init(report, schema: "audit-ssai.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let complaints = try await ExternalValidators.xmlSchema(try Data(contentsOf: URL(fileURLWithPath: junit)), xsd: "junit.xsd")
        #expect(complaints.isEmpty, "\(complaints)")
    }
}
