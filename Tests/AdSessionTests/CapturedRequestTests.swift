import Foundation
import Testing
@testable import AdSession

/// `vplay audit --beacons`: the beacon log's `sentAt` is ISO 8601 now; logs written before, with ms since 1970, still
/// read the same.
@Suite struct CapturedRequestTests {
    @Test func beaconLog_readsTheISO8601SentAt_andTheOlderIntegerOne_alike() throws {
        let lines = """
        {"event":"impression","url":"http://t.example/i","sentAt":"2026-01-01T00:00:00.123Z","finalAttempt":true,"dryRun":false,"session":"s"}
        {"event":"start","url":"http://t.example/s","sentAt":1767225600456,"finalAttempt":true,"dryRun":false}
        {"event":"complete","url":"http://t.example/c","sentAt":null,"finalAttempt":true,"dryRun":false,"session":"s"}
        """
        let requests = try CapturedRequest.parse(Data(lines.utf8), format: .beacons)
        #expect(requests.map(\.url) == ["http://t.example/i", "http://t.example/s"], "one never sent is not in a capture")
        #expect(requests.map(\.sentAt) == [1_767_225_600_123, 1_767_225_600_456])
    }

    /// Captured times are untrusted: a time out of 1970…9999, fractional, huge or not a number is read as no time
    /// (the request still counts), never a trap or a wrapped value. `9223372036854775807`, `1e300` and `-1e300` made
    /// `vplay audit` trap on an overflow.
    @Test func extremeTimes_areNoTime_inEveryFormat() throws {
        let beacons = """
        {"event":"impression","url":"http://t.example/a","sentAt":9223372036854775807}
        {"event":"impression","url":"http://t.example/b","sentAt":1e300}
        {"event":"impression","url":"http://t.example/c","sentAt":-1e300}
        {"event":"impression","url":"http://t.example/d","sentAt":"+999999999-01-01T00:00:00Z"}
        {"event":"impression","url":"http://t.example/e","sentAt":1767225600456.7}
        {"event":"impression","url":"http://t.example/f","sentAt":-9223372036854775808}
        """
        let fromBeacons = try CapturedRequest.parse(Data(beacons.utf8), format: .beacons)
        #expect(fromBeacons.map(\.url.last) == ["a", "b", "c", "d", "e", "f"])
        #expect(fromBeacons.map(\.sentAt) == [nil, nil, nil, nil, 1_767_225_600_457, nil])
        let sink = """
        {"target":"/a","receivedAtMilliseconds":1e300}
        {"target":"/b","receivedAtMilliseconds":-1e300}
        {"target":"/c","receivedAtMilliseconds":9223372036854775807}
        {"target":"/d","receivedAtMilliseconds":1767225600000}
        """
        #expect(try CapturedRequest.parse(Data(sink.utf8), format: .sinkLog).map(\.sentAt) == [nil, nil, nil, 1_767_225_600_000])
        let har = #"{"log":{"entries":[{"startedDateTime":"9999999-01-01T00:00:00Z","request":{"method":"GET","url":"http://t.example/a"}},"#
            + #"{"startedDateTime":"2026-01-01T00:00:00.5Z","request":{"method":"GET","url":"http://t.example/b"}}]}}"#
        #expect(try CapturedRequest.parse(Data(har.utf8), format: .har).map(\.sentAt) == [nil, 1_767_225_600_500])
    }

    /// `audit --har /dev/zero` read the device until it failed, and said "permission": a capture that is not a
    /// regular file is named for what it is.
    @Test func aDeviceOrAFolder_isNotACapture() {
        for (path, what) in [("/dev/zero", "a character device"), ("/tmp", "a folder")] {
            #expect { _ = try CapturedRequest.read(path, format: .har) } throws: { error in
                (error as? CapturedRequest.ReadError)?.description == "\(path): not a regular file (\(what)); a capture is a file"
            }
        }
    }
}
