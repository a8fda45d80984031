import AdSession
import Foundation
import Primitives
import Testing
import TestSupport

/// Hostile tracking documents (issue 42): nesting, huge lists, bad times, what is not a tracking document, and
/// beacon URLs outside the policy — each refused with a clear message before anything is fired.
@Suite(.hangLimit) struct TrackedStreamHostileBehaviourTests {
    typealias D = TrackingDocuments
    static let url = "https://stitcher.example/tracking"

    static func refusal(_ text: String) -> String? {
        if case let .failure(error) = TrackingDocument.read(Data(text.utf8)) { return error.message }
        return nil
    }

    @Test func nestingDeeperThanTheSchema_isRefusedBeforeItIsParsed() {
        let deep = "{\"avails\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(Self.refusal(deep)?.contains("nests deeper than 32 levels") == true)
        // Brackets inside strings are text, not nesting.
        let quoted = D.document([D.avail("a[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", start: 1, duration: 2)])
        #expect(Self.refusal(quoted) == nil)
    }

    @Test func hugeLists_areRefusedAtTheirLimit() {
        let events = Array(repeating: D.event("progress", at: "1", urls: ["http://t.example/p"]), count: 100_001).joined(separator: ",")
        let many = "{\"avails\": [{\"startTimeInSeconds\": 0, \"ads\": [{\"startTimeInSeconds\": 0, \"durationInSeconds\": 1, \"trackingEvents\": [\(events)]}]}]}"
        #expect(Self.refusal(many) == "the tracking document lists more than 100000 tracking events")
        let avails = Array(repeating: "{\"startTimeInSeconds\": 0, \"ads\": []}", count: 1_001).joined(separator: ",")
        #expect(Self.refusal("{\"avails\": [\(avails)]}") == "the tracking document lists more than 1000 avails")
    }

    @Test(arguments: [("-1", "avail 1: -1.0 s is not a time"), ("1e300", "avail 1: 1e+300 s is not a time"), ("\"ten\"", "not a tracking document (JSON with \"avails\"): .avails[0].startTimeInSeconds"),
                      ("86401", "avail 1: 86401.0 s is not a time")])
    func badTimes_areRefused(_ time: String, _ message: String) {
        let text = "{\"avails\": [{\"startTimeInSeconds\": \(time), \"ads\": []}]}"
        #expect(Self.refusal(text)?.contains(message) == true, "\(Self.refusal(text) ?? "accepted")")
    }

    @Test func whatIsNotATrackingDocument_isRefused_andTheRunEndsWithAnAdError() async throws {
        #expect(Self.refusal("<VAST version=\"4.1\"/>")?.hasPrefix("not a tracking document (JSON with \"avails\")") == true)
        #expect(Self.refusal("{\"ads\": []}") == "not a tracking document: it has no \"avails\"")
        #expect(Self.refusal("{\"avails\": [{\"startTimeInSeconds\": 1, \"ads\": [{\"startTimeInSeconds\": 1, \"durationInSeconds\": 2, \"trackingEvents\": [{\"startTimeInSeconds\": 1}]}]}]}")
            == "avail 1 ad 1 event 1 has no eventType")
        var kit = SessionKit()
        kit.tag(Self.url, String(repeating: " ", count: 3 * 1024 * 1024) + D.mediaTailorExample())
        let run = await kit.runTrackedStream(kit.configuration(Self.url, dryRun: true))
        #expect(run.summary.outcome == .adError && run.planned.isEmpty)
        #expect(run.summary.tracking?.documentError?.message == "the tracking document is larger than 2097152 bytes")
    }

    @Test func beaconURLsOutsideThePolicy_areNeverRequested() async throws {
        let folder = try TemporaryFolder()
        let hits = Locked<[String]>([])
        let server = try ScriptedHTTPServer { target in
            hits.withLock { $0.append(target) }
            return .status(204)
        }
        defer { server.stop() }
        let urls = ["file:///etc/passwd", "http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:99999/x", "\(server.baseURL)/allowed"]
        let doc = try folder.write("doc.json", D.document(["""
            {"startTimeInSeconds": 1, "durationInSeconds": 2, "ads": [{"startTimeInSeconds": 1, "durationInSeconds": 2,
             "trackingEvents": [\(D.event("impression", at: "1", urls: urls))]}]}
            """]))
        var configuration = try SessionKit().configuration(cli: ["--tracking-doc", doc, "--deny-private-networks", "--beacon-timeout", "5"])
        configuration.resolver.resolutionTimeout = .seconds(600)
        let records = Locked<[SessionRecord]>([])
        let summary = await TrackedStreamRunner(configuration: configuration, playback: TrackedStreamPlayback(streamDuration: .seconds(5)),
                                                environment: .live(configuration)).run { record in records.withLock { $0.append(record) } }
        let run = SessionRun(summary: summary, records: records.withLock { $0 }, sent: [])
        #expect(summary.outcome == .completed)
        #expect(hits.withLock { $0 } == ["/allowed"])
        let failures = Dictionary(uniqueKeysWithValues: run.attempts.filter { $0.attempt <= 1 }.map { ($0.url, $0.failure?.code ?? "ok") })
        #expect(failures["file:///etc/passwd"] != "ok" && failures["http://169.254.169.254/latest/meta-data/"] == "addressDenied", "\(failures)")
        #expect(failures["http://127.0.0.1:99999/x"] != "ok" && failures["\(server.baseURL)/allowed"] == "ok", "\(failures)")
        withExtendedLifetime(folder) {}
    }
}
