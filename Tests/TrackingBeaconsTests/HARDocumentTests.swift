import Networking
import Foundation
import TestSupport
import Testing
@testable import TrackingBeacons

/// The HAR as viewers read it: an entry per request (redirect hops included), real reason phrases, cookies, sizes,
/// timings that say where the time went, times in whole microseconds, and the page and browser HAR tools require.
/// Every document here is checked against `schemas/har-1.2.schema.json`.
@Suite struct HARDocumentTests {
    static let sentAt: Int64 = 1_767_225_600_123
    static let sink = "http://127.0.0.1:40001"

    /// An impression that went through two redirects: a 302 setting a cookie, a 301, then a 200 GIF.
    static var redirected: BeaconRecord {
        var record = BeaconRecord(event: "impression", source: "inline", template: "http://t.example/i", url: "http://t.example/i",
                                  playhead: .zero, clock: .zero, status: 200, latency: .microseconds(9_500), bytes: 43,
                                  dryRun: false, sentAt: sentAt)
        record.requestedURL = sink + "/i"
        let sent = { (url: String) in [HeaderField(name: "Host", value: "127.0.0.1:40001"), HeaderField(name: "User-Agent", value: "vplay-test")] }
        record.hops = [
            BeaconHop(url: sink + "/i", requestHeaders: sent(""), requestHeadersSize: 64, start: .zero, status: 302, reasonPhrase: "Found",
                      httpVersion: "HTTP/1.1",
                      responseHeaders: [HeaderField(name: "Location", value: "/a?x=1"),
                                        HeaderField(name: "Set-Cookie", value: "uid=abc123; Path=/; Domain=t.example; Max-Age=60; HttpOnly; Secure")],
                      responseHeadersSize: 120, wait: .microseconds(2_000), bodySize: nil),
            BeaconHop(url: sink + "/a?x=1", requestHeaders: sent(""), requestHeadersSize: 68, start: .microseconds(2_400), status: 301,
                      reasonPhrase: "Moved Permanently", httpVersion: "HTTP/1.1",
                      responseHeaders: [HeaderField(name: "Location", value: sink + "/b")], responseHeadersSize: 90,
                      wait: .microseconds(3_000), bodySize: nil),
            BeaconHop(url: sink + "/b", requestHeaders: sent(""), requestHeadersSize: 64, start: .microseconds(5_600), status: 200,
                      reasonPhrase: "OK", httpVersion: "HTTP/1.1",
                      responseHeaders: [HeaderField(name: "Content-Type", value: "image/gif"),
                                        HeaderField(name: "Set-Cookie", value: "seen=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT")],
                      responseHeadersSize: 80, wait: .microseconds(3_000), receive: .microseconds(485), bodySize: 43),
        ]
        return record
    }

    static func entries(_ records: [BeaconRecord]) async throws -> [[String: Any]] {
        try await HARValidation.validate(try HARDocument(records: records, userAgent: "vplay-test", title: "ad.xml").encoded())
    }

    @Test func har_redirectedAttempt_isOneEntryPerHop_withItsStatusRedirectURLAndSharedVPlayFields() async throws {
        let entries = try await Self.entries([Self.redirected])
        #expect(entries.count == 3)
        let requests = entries.compactMap { $0["request"] as? [String: Any] }, responses = entries.compactMap { $0["response"] as? [String: Any] }
        #expect(requests.map { $0["url"] as? String } == [Self.sink + "/i", Self.sink + "/a?x=1", Self.sink + "/b"])
        #expect(responses.map { $0["status"] as? Int } == [302, 301, 200])
        #expect(responses.map { $0["statusText"] as? String } == ["Found", "Moved Permanently", "OK"])
        #expect(responses.map { $0["redirectURL"] as? String } == ["/a?x=1", Self.sink + "/b", ""])
        let vplay = entries.compactMap { $0["_vplay"] as? [String: Any] }
        #expect(vplay.map { $0["hop"] as? Int } == [0, 1, 2])
        #expect(vplay.allSatisfy { $0["event"] as? String == "impression" && $0["attempt"] as? Int == 1 && $0["beaconURL"] as? String == "http://t.example/i" })
        #expect(vplay.allSatisfy { $0["redirects"] == nil })
        #expect(entries.map { $0["startedDateTime"] as? String } == ["2026-01-01T00:00:00.123Z", "2026-01-01T00:00:00.125Z", "2026-01-01T00:00:00.129Z"],
                "each hop starts when its request went out")
    }

    @Test func har_headersAndBodies_areTheMeasuredSizes_andTheRequestHeadersAreThoseSent() async throws {
        let entries = try await Self.entries([Self.redirected])
        let requests = entries.compactMap { $0["request"] as? [String: Any] }, responses = entries.compactMap { $0["response"] as? [String: Any] }
        #expect(requests.map { $0["headersSize"] as? Int } == [64, 68, 64])
        #expect(requests[0]["headers"] as? [[String: String]] == [["name": "Host", "value": "127.0.0.1:40001"], ["name": "User-Agent", "value": "vplay-test"]])
        #expect(responses.map { $0["headersSize"] as? Int } == [120, 90, 80])
        #expect(responses.map { $0["bodySize"] as? Int } == [-1, -1, 43], "a redirect's body is not read")
        #expect(responses.map { ($0["content"] as? [String: Any])?["size"] as? Int } == [0, 0, 43])
    }

    @Test func har_setCookie_becomesResponseCookies_withTheirAttributes() async throws {
        let entries = try await Self.entries([Self.redirected])
        let first = try #require((entries[0]["response"] as? [String: Any])?["cookies"] as? [[String: Any]])
        #expect(first.count == 1)
        #expect(first[0]["name"] as? String == "uid" && first[0]["value"] as? String == "abc123")
        #expect(first[0]["path"] as? String == "/" && first[0]["domain"] as? String == "t.example")
        #expect(first[0]["httpOnly"] as? Bool == true && first[0]["secure"] as? Bool == true)
        #expect(first[0]["expires"] as? String == "2026-01-01T00:01:00.123Z", "Max-Age 60 from when the answer came")
        let last = try #require((entries[2]["response"] as? [String: Any])?["cookies"] as? [[String: Any]])
        #expect(last.first?["name"] as? String == "seen" && last.first?["expires"] as? String == "2026-10-21T07:28:00.000Z")
    }

    @Test func har_statusText_isTheReasonPhrase_for403And429() async throws {
        let records = [403, 429, 451].map { status in
            BeaconRecord(event: "start", source: "inline", template: "http://t.example/s", url: "http://t.example/s", playhead: .zero,
                         clock: .zero, status: status, failure: .httpStatus(status), latency: .milliseconds(3), bytes: 0, dryRun: false, sentAt: Self.sentAt)
        }
        let responses = try await Self.entries(records).compactMap { $0["response"] as? [String: Any] }
        #expect(responses.map { $0["statusText"] as? String } == ["Forbidden", "Too Many Requests", "Unavailable For Legal Reasons"])
        #expect(responses.allSatisfy { $0["_error"] == nil }, "an HTTP status shows for itself")
    }

    @Test func har_refusedConnection_isStatus0WithTheError_andItsTimeIsConnectingNotWaiting() async throws {
        var record = BeaconRecord(event: "complete", source: "inline", template: "http://t.example/c", url: "http://127.0.0.1:1/c",
                                  playhead: .seconds(10), clock: .seconds(20), failure: .connectionRefused, latency: .microseconds(1_250),
                                  bytes: 0, dryRun: false, sentAt: Self.sentAt)
        record.hops = [BeaconHop(url: "http://127.0.0.1:1/c", requestHeaders: [HeaderField(name: "Host", value: "127.0.0.1:1")],
                                 requestHeadersSize: 40, connect: .microseconds(1_200))]
        var withoutHops = record
        withoutHops.hops = []
        for entry in try await Self.entries([record, withoutHops]) {
            let response = try #require(entry["response"] as? [String: Any])
            #expect(response["status"] as? Int == 0 && response["statusText"] as? String == "")
            #expect(response["_error"] as? String == "connection refused")
            let timings = try #require(entry["timings"] as? [String: Double])
            #expect(timings["wait"] == 0 && (timings["connect"] ?? 0) > 1, "\(timings)")
            #expect((entry["request"] as? [String: Any])?["headersSize"] as? Int == -1, "no connection, so no head was written")
        }
    }

    @Test func har_redirectTargetNotRequested_isAnEntryWithStatus0AndTheFailure() async throws {
        var record = Self.redirected
        record.status = nil
        record.failure = .redirectCycle
        record.hops = Array(record.hops.prefix(1)) + [BeaconHop(url: Self.sink + "/i", requested: false, start: .microseconds(2_100))]
        let entries = try await Self.entries([record])
        #expect(entries.count == 2)
        let last = try #require(entries[1]["response"] as? [String: Any])
        #expect(last["status"] as? Int == 0 && last["_error"] as? String == "redirect cycle")
        #expect((entries[0]["response"] as? [String: Any])?["_error"] == nil, "the 302 that led there was answered")
        #expect((entries[1]["request"] as? [String: Any])?["headersSize"] as? Int == -1, "never sent")
    }

    @Test func har_times_areRoundedToTheMicrosecond() async throws {
        // 13.485 ms as seconds, times 1000, is 13.485000000000001 in binary floating point.
        let record = BeaconRecord(event: "start", source: "inline", template: "http://t.example/s", url: "http://t.example/s", playhead: .zero,
                                  clock: .zero, status: 200, latency: .nanoseconds(13_485_000), bytes: 43, dryRun: false, sentAt: Self.sentAt)
        let data = try HARDocument(records: [record, Self.redirected], userAgent: "vplay-test").encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"time\" : 13.485,"), "\(text)")
        #expect(!text.contains("0000000"))
        let entries = try await HARValidation.validate(data)
        #expect((entries[3]["timings"] as? [String: Double])?["receive"] == 0.485)
        #expect(entries[3]["time"] as? Double == 3.485)
    }

    @Test func har_hasTheBrowserAndOnePagePerSession_thatEveryEntryNames() async throws {
        let data = try HARDocument(records: [Self.redirected], userAgent: "vplay-test", title: "media/demo.xml").encoded()
        _ = try await HARValidation.validate(data)
        let log = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])
        #expect((log["browser"] as? [String: String])?["name"] == "vplay")
        let pages = try #require(log["pages"] as? [[String: Any]])
        #expect(pages.count == 1)
        #expect(pages[0]["id"] as? String == "session-1" && pages[0]["title"] as? String == "media/demo.xml")
        #expect(pages[0]["startedDateTime"] as? String == "2026-01-01T00:00:00.123Z", "the first request")
        #expect(pages[0]["pageTimings"] as? [String: Int] == ["onContentLoad": -1, "onLoad": -1])
        #expect((log["entries"] as? [[String: Any]])?.allSatisfy { $0["pageref"] as? String == "session-1" } == true)
    }

    @Test func schema_rejectsAHARMissingWhatTheSpecRequires() async throws {
        let broken = Data(#"{"log":{"version":"1.2","creator":{"name":"x"},"entries":[{"startedDateTime":"yesterday","time":-3}],"extra":1}}"#.utf8)
        let complaints = try await ExternalValidators.jsonSchema(broken, schemaFile: "har-1.2.schema.json")
        for expected in ["creator: 'version' is a required property", "entries/0: 'request' is a required property",
                         "entries/0/startedDateTime", "entries/0/time", "log: 'extra' does not match"] {
            #expect(complaints.contains(expected), "\(complaints)")
        }
    }
}
