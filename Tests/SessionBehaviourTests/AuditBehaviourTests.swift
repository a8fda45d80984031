import AdSession
import Foundation
import Testing
import TrackingBeacons
import TestSupport

/// `vplay audit`'s judgements (issue 20) on fixed captures: the demo played by a perfect player — every beacon the
/// session fired, sent at its exact session time — and the same capture edited to hold each defect a device shows (a
/// missing midpoint, a doubled start, bunched quartiles, complete before thirdQuartile, a wrong playhead, an error
/// without a code, a stray pixel). Times are the kit's, so a verdict never depends on how busy the machine is.
@Suite struct AuditBehaviourTests {
    let kit = SessionKit()

    /// The capture of a perfect player and the tag's inspection.
    func capture() async throws -> ([CapturedRequest], AdInspection) {
        let configuration = try kit.configuration(cli: ["--vast", "media/demo.xml"])
        let run = await kit.run(configuration)
        let requests = run.attempts.enumerated().map { index, beacon in
            CapturedRequest(url: beacon.url, sentAt: kit.wallStart + beacon.clock.wholeMilliseconds, index: index + 1)
        }
        return (requests, await kit.inspect(configuration))
    }

    func audit(_ edit: (inout [CapturedRequest]) -> Void = { _ in }) async throws -> BeaconAudit {
        var (requests, inspection) = try await capture()
        edit(&requests)
        return BeaconAudit(inspection: inspection, requests: requests)
    }

    static func index(_ requests: [CapturedRequest], _ path: String) -> Int { requests.firstIndex { $0.url.contains(path) }! }
    func failed(_ audit: BeaconAudit) -> [String] { audit.findings.filter { !$0.passed && !$0.warning }.map(\.check) }
    func verdict(_ audit: BeaconAudit, _ event: String) -> BeaconAudit.Verdict? { audit.trackers.first { $0.event == event }?.verdict }

    @Test func aPerfectPlayersCapture_isClean() async throws {
        let clean = try await audit()
        #expect(clean.passed, "\(failed(clean))")
        #expect(clean.matched.count == 12 && clean.unmatched.isEmpty)
        let checks = clean.findings.map(\.check)
        #expect(checks.contains("timing.midpoint") && checks.contains("timing.duration") && checks.contains("playhead.midpoint"), "\(checks)")
    }

    @Test func aMissingMidpoint_andADoubledStart_areFound() async throws {
        let missing = try await audit { $0.remove(at: Self.index($0, "/midpoint?")) }
        #expect(!missing.passed && verdict(missing, "midpoint") == .missing)
        let doubled = try await audit { $0.append($0[Self.index($0, "/start?")]) }
        #expect(!doubled.passed && verdict(doubled, "start") == .duplicated)
    }

    @Test func quartilesBunchedAtComplete_andCompleteBeforeThirdQuartile_areFound() async throws {
        // A player that fires every quartile when the video completes.
        let bunched = try await audit { requests in
            let complete = requests[Self.index(requests, "/complete?")].sentAt
            for path in ["/firstQuartile?", "/midpoint?", "/thirdQuartile?"] { requests[Self.index(requests, path)].sentAt = complete }
        }
        #expect(failed(bunched) == ["timing.firstQuartile", "timing.midpoint", "timing.thirdQuartile", "timing.bunched"])
        let swapped = try await audit { requests in
            let third = Self.index(requests, "/thirdQuartile?"), complete = Self.index(requests, "/complete?")
            (requests[third].sentAt, requests[complete].sentAt) = (requests[complete].sentAt, requests[third].sentAt)
        }
        #expect(failed(swapped).contains("order.complete"), "\(failed(swapped))")
    }

    @Test func aMidpointLateByMoreThanTheTolerance_failsItsTiming() async throws {
        let late = try await audit { requests in requests[Self.index(requests, "/midpoint?")].sentAt! += 1_001 }
        #expect(failed(late) == ["timing.midpoint"], "\(failed(late))")
        let withinTolerance = try await audit { requests in requests[Self.index(requests, "/midpoint?")].sentAt! += 999 }
        #expect(withinTolerance.passed, "\(failed(withinTolerance))")
    }

    @Test func aWrongPlayhead_anErrorWithoutACode_andAStrayRequest() async throws {
        let wrong = try await audit { requests in
            let index = Self.index(requests, "/midpoint?")
            requests[index].url = requests[index].url.replacingOccurrences(of: "pos=00%3A00%3A05.000", with: "pos=00%3A00%3A08.000")
        }
        #expect(failed(wrong) == ["playhead.midpoint"], "\(failed(wrong))")
        let error = try await audit { requests in
            let at = requests[0].sentAt
            requests.append(CapturedRequest(url: "http://127.0.0.1:8089/error?code=[ERRORCODE]&pos=-1&cb=1", sentAt: at, index: requests.count + 1))
            requests.append(CapturedRequest(url: "http://127.0.0.1:8089/unknown-pixel?x=1", sentAt: at, index: requests.count + 1))
        }
        #expect(failed(error) == ["errorcode"], "\(failed(error))")
        #expect(error.unmatched.map(\.url) == ["http://127.0.0.1:8089/unknown-pixel?x=1"], "listed, not failed")
        #expect(error.findings.contains { $0.check == "macros" && $0.warning })
    }
}
