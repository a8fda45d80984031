import AdSession
import Foundation
import Testing
import TestSupport

/// Audits of a device capture against a stitcher's tracking document (issue 42, item 5): MediaTailor's documented
/// example fired by a perfect player, one that loses a beacon, one that is late, one that left early, and a player
/// that fires the server's events in hybrid reporting.
@Suite struct TrackingDocumentAuditTests {
    typealias D = TrackingDocuments
    static let start: Int64 = 1_767_225_600_000

    static func document() throws -> TrackingDocument {
        try TrackingDocument.read(Data(D.mediaTailorExample().utf8)).get()
    }

    /// Every beacon URL of the example at its document time (+ `shift` ms for `event`), except those `drop`s.
    static func capture(drop: Set<String> = [], until: Int64 = .max, shift: (event: String, ms: Int64)? = nil) throws -> [CapturedRequest] {
        var requests: [CapturedRequest] = []
        for avail in try document().avails {
            let events = avail.breakEvents + avail.ads.flatMap(\.events)
            for event in events where !drop.contains(event.type) && event.start.wholeMilliseconds <= until {
                let at = start + event.start.wholeMilliseconds + (shift?.event == event.type ? shift!.ms : 0)
                requests += event.beaconURLs.map { CapturedRequest(url: $0.replacingOccurrences(of: "[CONTENTPLAYHEAD]", with: "00:00:17.817").replacingOccurrences(of: "[BREAKPOSITION]", with: "2"),
                                                                   sentAt: at, index: requests.count + 1) }
            }
        }
        return requests
    }

    @Test func aPerfectPlayer_passesEveryBeacon_onTheStreamsTimeline() throws {
        let audit = TrackingDocumentAudit(document: try Self.document(), requests: try Self.capture())
        #expect(audit.passed && audit.matched == 8 && audit.unmatched.isEmpty)
        #expect(audit.rows.allSatisfy { $0.verdict == .ok && ($0.lateness ?? 0) == 0 })
        #expect(audit.reachedStreamTime == .milliseconds(32_917))
    }

    @Test func aLostMidpoint_isMissing_andALateQuartileFailsItsTiming() throws {
        let lost = TrackingDocumentAudit(document: try Self.document(), requests: try Self.capture(drop: ["midpoint"]))
        #expect(!lost.passed && lost.rows.filter { $0.verdict == .missing }.map(\.event) == ["midpoint"])
        let late = TrackingDocumentAudit(document: try Self.document(), requests: try Self.capture(shift: ("thirdQuartile", 1500)))
        #expect(!late.passed && late.rows.allSatisfy { $0.verdict == .ok })
        #expect(late.findings.map(\.check) == ["timing.thirdQuartile"] && late.findings[0].detail.contains("+1.500 s"))
    }

    @Test func aViewerWhoLeft_isNotFailedForWhatCameAfter_butTwiceIsDuplicated() throws {
        let left = TrackingDocumentAudit(document: try Self.document(), requests: try Self.capture(until: 25_367))
        #expect(left.passed, "\(left.rows.map { "\($0.event) \($0.verdict)" })")
        #expect(left.rows.first { $0.event == "complete" }.map { "\($0.minimum) \($0.seen)" } == "0 0")
        var twice = try Self.capture()
        twice.append(CapturedRequest(url: "http://exampleadserver.com/tracking?event=impression", sentAt: Self.start + 17_900, index: 99))
        let doubled = TrackingDocumentAudit(document: try Self.document(), requests: twice)
        #expect(doubled.rows.filter { $0.verdict == .duplicated }.map(\.event) == ["impression"])
    }

    @Test func inHybridReporting_aPlayerFiringTheServersEvents_countsThemTwice() throws {
        let audit = TrackingDocumentAudit(document: try Self.document(), requests: try Self.capture(), reporting: .hybrid)
        #expect(!audit.passed)
        #expect(Set(audit.rows.filter { $0.verdict == .duplicated }.map(\.event)) == ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "breakStart", "breakEnd"])
        let quiet = TrackingDocumentAudit(document: try Self.document(), requests: [], reporting: .hybrid)
        #expect(quiet.passed)
    }
}
