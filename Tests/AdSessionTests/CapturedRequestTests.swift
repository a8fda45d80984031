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
}
