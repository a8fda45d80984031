import Networking
import Foundation
import TestSupport
import Testing
@testable import TrackingBeacons

/// The beacon log's two forms: JSON Lines and HAR 1.2.
@Suite struct BeaconLogTests {
    static let sent = BeaconRecord(
        event: "midpoint", source: "wrapper 1 (AdServer)", template: "http://t.example/m?pos=[ADPLAYHEAD]&cb=[CACHEBUSTING]",
        url: "http://t.example/m?pos=00%3A00%3A05.000&cb=12345678", playhead: .seconds(5), clock: .seconds(15),
        attempt: 2, status: 200, failure: nil, latency: .milliseconds(12), bytes: 43, dryRun: false, sentAt: 1_767_225_600_123)
    static let failed = BeaconRecord(
        event: "complete", source: "inline", template: "http://t.example/c", url: "http://t.example/c",
        playhead: .seconds(10), clock: .seconds(20), status: nil, failure: .connectionRefused, latency: .milliseconds(1), bytes: 0,
        dryRun: false, sentAt: 1_767_225_600_456)
    static let dry = BeaconRecord(event: "start", source: "inline", template: "http://t.example/s", url: "http://t.example/s",
                                  playhead: .zero, clock: .zero, dryRun: true)

    @Test func jsonLines_eachRecordIsOneObjectWithEveryField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-log-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try BeaconLogWriter(path: folder.path, session: "s-1")
        writer.append(Self.sent)
        writer.append(Self.failed)
        try writer.close()
        let lines = try String(contentsOf: folder, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["event"] as? String == "midpoint" && first["source"] as? String == "wrapper 1 (AdServer)")
        #expect(first["template"] as? String == Self.sent.template && first["url"] as? String == Self.sent.url)
        #expect(first["playhead"] as? Double == 5 && first["clock"] as? Double == 15 && first["latency"] as? Double == 0.012)
        #expect(first["sentAt"] as? String == "2026-01-01T00:00:00.123Z" && first["attempt"] as? Int == 2 && first["status"] as? Int == 200)
        #expect(first["bytes"] as? Int == 43 && first["delivered"] as? Bool == true && first["dryRun"] as? Bool == false)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["status"] is NSNull && second["error"] as? String == "connection refused" && second["delivered"] as? Bool == false)
        #expect(second["errorCode"] as? String == "connectionRefused", "a stable code beside the words")
        #expect(first["errorCode"] is NSNull && first["error"] is NSNull, "every record has every key")
        #expect(first["session"] as? String == "s-1" && second["session"] as? String == "s-1")
        #expect(first["offset"] == nil, "only a progress beacon has an offset")
    }

    @Test func jsonLines_keysAreSorted_soEqualRecordsGiveEqualBytes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-log-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try BeaconLogWriter(path: file.path, session: "s-1")
        for _ in 0..<20 { writer.append(Self.sent) }
        try writer.close()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(Set(lines).count == 1, "the same record is the same bytes every time")
        let keys = try #require(lines.first).matches(of: /"([A-Za-z]+)":/).map { String($0.output.1) }
        #expect(keys == keys.sorted() && keys.count == 17, "\(keys)")
    }

    @Test func har_isValidHAR12_withOneEntryPerSentAttempt() async throws {
        let data = try HARDocument(records: [Self.sent, Self.failed, Self.dry], userAgent: "vplay-test").encoded()
        let entries = try await HARValidation.validate(data)
        #expect(entries.count == 2, "dry-run records are not requests")
        let first = entries[0]
        #expect((first["request"] as? [String: Any])?["url"] as? String == Self.sent.url)
        #expect(first["startedDateTime"] as? String == "2026-01-01T00:00:00.123Z")
        let query = try #require((first["request"] as? [String: Any])?["queryString"] as? [[String: String]])
        #expect(query == [["name": "pos", "value": "00%3A00%3A05.000"], ["name": "cb", "value": "12345678"]])
        #expect((first["_vplay"] as? [String: Any])?["event"] as? String == "midpoint")
        let failedResponse = try #require(entries[1]["response"] as? [String: Any])
        #expect(failedResponse["status"] as? Int == 0 && failedResponse["_error"] as? String == "connection refused")
        #expect((failedResponse["content"] as? [String: Any])?["mimeType"] as? String == "x-unknown", "no response, no Content-Type")
    }

    @Test func har_showsTheRealResponseAndTheURLActuallyRequested() async throws {
        var routed = Self.sent
        routed.requestedURL = "http://127.0.0.1:40001/m?pos=00%3A00%3A05.000&cb=12345678"
        routed.responseHeaders = [HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8"), HeaderField(name: "Server", value: "sink")]
        var redirect = Self.failed
        redirect.status = 302
        redirect.failure = nil
        redirect.responseHeaders = [HeaderField(name: "location", value: "http://elsewhere.example/p")]
        let entries = try await HARValidation.validate(try HARDocument(records: [routed, redirect], userAgent: "vplay-test").encoded())
        let request = try #require(entries[0]["request"] as? [String: Any])
        #expect(request["url"] as? String == routed.requestedURL)
        let response = try #require(entries[0]["response"] as? [String: Any])
        #expect((response["content"] as? [String: Any])?["mimeType"] as? String == "text/plain; charset=utf-8")
        #expect(response["headers"] as? [[String: String]] == [["name": "Content-Type", "value": "text/plain; charset=utf-8"], ["name": "Server", "value": "sink"]])
        #expect(response["redirectURL"] as? String == "", "the final answer is not a redirect")
        let vplay = try #require(entries[0]["_vplay"] as? [String: Any])
        #expect(vplay["beaconURL"] as? String == Self.sent.url)
        #expect(vplay["redirects"] == nil, "each hop is an entry of its own")
        let redirected = try #require(entries[1]["response"] as? [String: Any])
        #expect(redirected["redirectURL"] as? String == "http://elsewhere.example/p")
    }

    @Test func har_leavesOutBeaconsThatWereNeverSent() async throws {
        var notSent = Self.failed
        notSent.sentAt = nil
        notSent.latency = nil
        notSent.failure = .notSentBeforeSessionEnd
        let entries = try await HARValidation.validate(try HARDocument(records: [Self.sent, notSent], userAgent: "vplay-test").encoded())
        #expect(entries.count == 1)
        #expect((entries[0]["_vplay"] as? [String: Any])?["event"] as? String == "midpoint")
    }
}
