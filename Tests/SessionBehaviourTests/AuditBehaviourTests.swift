import AdSession
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TrackingBeacons
import TestSupport
@testable import vplay

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

    /// Requests made with times no capture can hold (`Int64.max`, `Int64.min`, before 1970) are audited as requests
    /// without a time: counted, their timing not judged, and the report, JUnit cases and SVG drawn without a trap.
    @Test func extremeTimes_areCountedButNotTimed_andEveryOutputIsDrawn() async throws {
        let audit = try await audit { requests in
            requests[Self.index(requests, "/start")].sentAt = .max
            requests[Self.index(requests, "/midpoint")].sentAt = .min
            requests[Self.index(requests, "/complete")].sentAt = -1
        }
        #expect(verdict(audit, "start") == .ok && verdict(audit, "midpoint") == .ok && verdict(audit, "complete") == .ok)
        #expect(audit.matched.allSatisfy { $0.request.sentAt.map { (0...CapturedRequest.latestTime).contains($0) } ?? true })
        #expect(!failed(audit).contains { $0.hasPrefix("timing") }, "no time, no timing verdict: \(failed(audit))")
        #expect(AuditCommand.svg(audit, title: "t").hasPrefix("<svg"))
        #expect(!AuditCommand.json(audit, tag: "t", requests: 12).text.isEmpty && !AuditCommand.results(audit).isEmpty)
    }

    /// Issue 37, item 18: the audit's picture has a time axis in seconds and colours each beacon by its verdict —
    /// green, amber for a beacon whose event's timing failed, red for a URL missed or duplicated, a URL never seen
    /// named at the end of its lane — with the verdict in the title and a legend.
    @Test func theSVG_hasATimeAxis_andColoursEachBeaconByItsVerdict() async throws {
        let clean = AuditCommand.svg(try await audit(), title: "demo")
        #expect(clean.contains(#"class="axis""#) && clean.contains("seconds from</text>") && clean.contains("the first beacon"))
        let ticks = clean.components(separatedBy: #"<text class="tick""#).dropFirst().compactMap { $0.split(separator: ">").dropFirst().first?.split(separator: "<").first }
        #expect(ticks == ["0 s", "2 s", "4 s", "6 s", "8 s", "10 s"], "\(ticks)")
        #expect(clean.components(separatedBy: #"class="beacon ok""#).count - 1 == 12 && !clean.contains("off-time") && !clean.contains("count-wrong"))
        let lanes = clean.components(separatedBy: #"<text x="10" y=""#).dropFirst().compactMap { $0.split(separator: ">").dropFirst().first?.split(separator: "<").first }
        #expect(lanes.filter { $0 == "progress" }.count == 1, "one lane an event: \(lanes)")
        #expect(clean.contains(">every check holds</tspan>"))

        let edited = try await audit { requests in
            requests[Self.index(requests, "/midpoint?")].sentAt! += 3000
            requests.remove(at: Self.index(requests, "/firstQuartile?"))
        }
        #expect(verdict(edited, "firstQuartile") == .missing && failed(edited).contains("timing.midpoint"), "\(failed(edited))")
        let svg = AuditCommand.svg(edited, title: "demo")
        #expect(svg.contains(#"class="beacon off-time""#) && svg.contains("midpoint at 8.000 s: off time"), "the late midpoint is amber")
        #expect(svg.contains(">firstQuartile</text>") && svg.contains("URL missing</text>"), "the missing quartile keeps its lane, named in red")
        #expect(svg.contains(">checks failed</tspan>") && svg.contains(">missing or duplicated</text>"))
        #expect(try XMLDocument(data: Data(svg.utf8)).rootElement()?.name == "svg", "well-formed")
    }

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
        // Each verdict is a finding of its rule, the IDs `vplay lint` and `vplay rules` use.
        #expect(missing.trackers.compactMap(\.rule) == ["VPLAY-audit-missing"] && doubled.trackers.compactMap(\.rule) == ["VPLAY-audit-duplicated"])
    }

    @Test func quartilesBunchedAtComplete_andCompleteBeforeThirdQuartile_areFound() async throws {
        // A player that fires every quartile when the video completes.
        let bunched = try await audit { requests in
            let complete = requests[Self.index(requests, "/complete?")].sentAt
            for path in ["/firstQuartile?", "/midpoint?", "/thirdQuartile?"] { requests[Self.index(requests, path)].sentAt = complete }
        }
        #expect(failed(bunched) == ["timing.firstQuartile", "timing.midpoint", "timing.thirdQuartile", "timing.bunched"])
        #expect(Set(bunched.findings.filter { !$0.passed }.map(\.rule)) == ["VPLAY-audit-timing"])
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

    /// A play whose start, quartiles and complete share one millisecond (a player firing everything at the end)
    /// passed when captured as a HAR: the timing checks ran only when complete came later than start.
    @Test func aPlayWhoseBeaconsShareOneInstant_fails() async throws {
        let instant = try await audit { requests in
            let start = requests[Self.index(requests, "/start?")].sentAt
            for path in ["/firstQuartile?", "/midpoint?", "/thirdQuartile?", "/complete?"] { requests[Self.index(requests, path)].sentAt = start }
        }
        #expect(!instant.passed)
        #expect(failed(instant).contains("timing.duration") && failed(instant).contains("timing.bunched"), "\(failed(instant))")
    }

    /// Each quartile's lateness against its moment is reported, passing or not: a 265 ms poller and a 1 s poller
    /// both pass a 1 s tolerance and no longer look alike.
    @Test func eachQuartilesLateness_isReported() async throws {
        let late = try await audit { requests in requests[Self.index(requests, "/midpoint?")].sentAt! += 265 }
        let midpoint = try #require(late.findings.first { $0.check == "timing.midpoint" })
        #expect(midpoint.passed && midpoint.detail.hasSuffix("(late by 0.265 s)"), "\(midpoint.detail)")
        let clean = try await audit()
        #expect(clean.findings.first { $0.check == "timing.firstQuartile" }?.detail.hasSuffix("(on time)") == true)
    }

    /// A playhead macro before its quartile (vast-client-js sends the previous call's: firstQuartile at 2.500 s
    /// says 2.250 s) passed within the tolerance unremarked: it is flagged, as a warning.
    @Test func aPlayheadBeforeItsQuartile_isFlaggedEarly() async throws {
        let early = try await audit { requests in
            let index = Self.index(requests, "/midpoint?")
            requests[index].url = requests[index].url.replacingOccurrences(of: "pos=00%3A00%3A05.000", with: "pos=00%3A00%3A04.750")
        }
        #expect(early.passed, "within the tolerance: \(failed(early))")
        let flag = try #require(early.findings.first { $0.check == "playhead.early.midpoint" })
        #expect(flag.warning && flag.detail.contains("says playhead 4.750 s, 0.250 s before its moment"), "\(flag.detail)")
        #expect(try await audit().findings.allSatisfy { !$0.check.hasPrefix("playhead.early") }, "a player on time is not flagged")
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
        #expect(error.findings.contains { $0.check == "macros" && $0.warning && $0.rule == "VPLAY-audit-macros" })
        #expect(wrong.findings.first { !$0.passed }?.rule == "VPLAY-audit-playhead" && error.findings.first { !$0.passed && !$0.warning }?.rule == "VPLAY-audit-errorcode")
    }

    /// A HAR as a browser's dev tools write it: `pages`, entries with a `pageref`, a beacon answered with a redirect
    /// and the redirect's own entry (to a host the plan does not name: not tracking, not listed). Read as `vplay audit
    /// --har` reads it.
    @Test func aDevToolsHAR_withPagesAndRedirects_isRead() async throws {
        var root = try #require(try JSONSerialization.jsonObject(with: try await kit.perfectPlayerHAR()) as? [String: Any])
        var log = try #require(root["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        log["pages"] = [["id": "page_1", "title": "app", "startedDateTime": entries.first?["startedDateTime"] ?? "", "pageTimings": [String: Any]()]]
        let impression = try #require(entries.firstIndex { (($0["request"] as? [String: Any])?["url"] as? String)?.contains("/impression?") == true })
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
        let requests = try CapturedRequest.parse(try JSONSerialization.data(withJSONObject: root), format: .har)
        let (_, inspection) = try await capture()
        let audit = BeaconAudit(inspection: inspection, requests: requests)
        #expect(audit.passed && audit.matched.count == 12 && audit.unmatched.isEmpty, "\(failed(audit))")
        let text = AuditCommand.text(audit, requests: requests.count)
        #expect(text.contains("13 requests, 12 matched") && !text.contains("unmatched"), "\(text)")
    }

    /// A hostile capture: URLs over 16 KiB are not matched (the macro patterns would take more than linear time on a
    /// megabyte), only listed, shortened.
    @Test func urlsOver16KiB_areListedShortened_notMatched() async throws {
        let long = "http://127.0.0.1:8089/midpoint?pos=" + String(repeating: "a", count: 20_000) + "&cb=1"
        let entries = Array(repeating: #"{"startedDateTime":"2026-01-01T00:00:00Z","request":{"method":"GET","url":"\#(long)"}}"#, count: 3)
        let requests = try CapturedRequest.parse(Data((#"{"log":{"entries":["# + entries.joined(separator: ",") + "]}}").utf8), format: .har)
        let (_, inspection) = try await capture()
        let audit = BeaconAudit(inspection: inspection, requests: requests)
        #expect(!audit.passed && audit.matched.isEmpty && audit.unmatched.count == 3)
        let text = AuditCommand.text(audit, requests: requests.count)
        #expect(text.contains("MISSING") && text.contains("unmatched") && text.count < 10_000, "\(text.count) characters")
    }

    /// A capture of a million stray requests printed 195 MB: the text lists the first 100 unmatched and counts the
    /// rest; the JSON report keeps them all.
    @Test func manyUnmatchedRequests_areListedUpTo100_andCounted() async throws {
        var (requests, inspection) = try await capture()
        requests += (0..<250).map { CapturedRequest(url: "http://127.0.0.1:8089/pixel?n=\($0)", sentAt: nil, index: 1000 + $0) }
        let audit = BeaconAudit(inspection: inspection, requests: requests)
        #expect(audit.unmatched.count == 250)
        let text = AuditCommand.text(audit, requests: requests.count)
        #expect(text.components(separatedBy: "\nunmatched (request").count - 1 == 100)
        #expect(text.contains("… and 150 more unmatched requests (all of them in --report)"))
        let json = AuditCommand.json(audit, tag: "t", requests: requests.count).text
        #expect(json.components(separatedBy: "/pixel?n=").count - 1 == 250)
    }
}
