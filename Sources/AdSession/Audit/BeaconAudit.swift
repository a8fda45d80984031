import Findings
import Foundation
import Primitives
import VAST

/// `vplay audit`: judges a capture of what a real device fired (a HAR, a sink log, a beacon log) against what the tag
/// says must fire — the tracking plan of the same session core `run` and `inspect` use (`AdInspection.tracking`,
/// the wrapper chain included). Each captured request is matched to a tracking URL (`TemplateMatcher`); each URL
/// gets its expected count (for a full play, or for the early end the capture shows: a skip, a close, an error), its
/// seen count, first time and verdict; then the checks: order, timing against the media's duration, playhead macros,
/// `[ERRORCODE]`, macros left unexpanded, and requests that look like tracking but match nothing (listed, not failed).
public struct BeaconAudit: Sendable {
    /// One tracking URL of the ad, with how many requests the capture must hold for it and how many it holds.
    public struct Tracker: Sendable {
        /// The event it fires on (`impression`, `start`, `progress`, …).
        public var event: String
        /// Where it came from in the wrapper chain (`inline`, `wrapper 1 (AdSystem)`, …).
        public var source: String
        /// The URL as written in the VAST, macros not expanded.
        public var template: String
        /// For progress: its offset.
        public var offset: Duration?
        /// How many the capture must hold: at least `minimum`, at most `maximum` (nil: any number).
        public var minimum: Int
        /// The most the capture may hold; nil: any number.
        public var maximum: Int?
        /// Requests in the capture matched to it.
        public var seen: Int
        /// The first one's send time, ms since 1970, when the capture has times.
        public var first: Int64?
        /// `missing` when `seen` is below `minimum`, `duplicated` when above `maximum`, else `ok`.
        public var verdict: Verdict
        /// The rule a verdict other than `ok` breaks.
        public var rule: String? {
            switch verdict {
            case .ok: nil
            case .missing: Rule.auditMissing.id
            case .duplicated: Rule.auditDuplicated.id
            }
        }
    }

    /// How a tracker's seen count compares with what the capture must hold.
    public enum Verdict: String, Sendable {
        /// `ok`: within the bounds; `missing`: fewer than the minimum; `duplicated`: more than the maximum.
        case ok, missing, duplicated
    }

    /// One check over the capture.
    public struct Finding: Sendable {
        /// Stable name (`order`, `timing.midpoint`, `playhead.start`, `errorcode`, …): CI history keys on it.
        public var check: String
        /// Whether the check passed.
        public var passed: Bool
        /// What was checked and seen, in words.
        public var detail: String
        /// A warning: reported, never failed.
        public var warning = false
        /// The ID of the rule the check belongs to (`VPLAY-audit-timing` for `timing.midpoint`).
        public var rule: String { Rule.forAuditCheck(check).id }
    }

    /// Every tracking URL of the ad except `clickThrough`, with its verdict.
    public var trackers: [Tracker] = []
    /// The checks over the capture, in order.
    public var findings: [Finding] = []
    /// Requests that look like tracking (to a host of the plan, or a tracking-looking path) and match nothing.
    public var unmatched: [CapturedRequest] = []
    /// Every request matched, with its tracker's index, in capture order (for the timeline).
    public var matched: [(request: CapturedRequest, tracker: Int)] = []
    /// The media's duration (or the tag's `<Duration>` when the media was not opened); nil when neither is known.
    public var duration: Duration?
    /// Seconds of slack for the timing and playhead checks.
    public var tolerance: Double
    /// True when every tracker is `ok` and every finding passed or is only a warning.
    public var passed: Bool { trackers.allSatisfy { $0.verdict == .ok } && findings.allSatisfy { $0.passed || $0.warning } }

    /// Requests this close together (ms) are simultaneous for the order check.
    static let simultaneousMilliseconds: Int64 = 250

    /// One-shot events of a full play and their share of the duration.
    static let milestones: [(event: String, share: Double)] = [("start", 0), ("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1)]

    /// In a VMAP break: the content time it fell at. `[CONTENTPLAYHEAD]` and `[MEDIAPLAYHEAD]` are then the content's
    /// playhead, checked against it, not the ad's.
    public var contentTime: Duration?

    /// Audits `requests` against the tracking of `inspection`.
    /// - Parameters:
    ///   - tolerance: seconds of slack for timing and playhead checks; 1 by default.
    ///   - contentTime: in a VMAP break, the content time the break fell at (`contentTime`).
    public init(inspection: AdInspection, requests: [CapturedRequest], tolerance: Double = 1, contentTime: Duration? = nil) {
        self.tolerance = tolerance
        self.contentTime = contentTime
        duration = inspection.media?.exactDuration ?? inspection.ad?.linear?.duration
        let rows = inspection.tracking.filter { $0.event != "clickThrough" }
        let seen = match(requests, to: rows)
        trackers = Self.trackers(rows, seen: seen, duration: duration, tolerance: tolerance)
        let times = { (event: String) -> [Int64] in
            rows.indices.filter { rows[$0].event == event }.flatMap { seen[$0].compactMap(\.request.sentAt) }.sorted()
        }
        let paused = rows.indices.contains { ["pause", "resume"].contains(rows[$0].event) && !seen[$0].isEmpty }
        findings = Self.orderFindings(times: times) + Self.timingFindings(times: times, paused: paused, duration: duration, tolerance: tolerance)
        for index in rows.indices {
            findings += playheadFindings(rows[index], hits: seen[index], tracker: trackers[index], skipOffset: inspection.ad?.linear?.skipOffset)
            findings += Self.errorCodeFindings(rows[index], hits: seen[index])
        }
        // Macros a player left unexpanded.
        for (request, _) in matched where request.url.range(of: #"\[[A-Z_]{3,}\]|%5B[A-Z_]{3,}%5D"#, options: .regularExpression) != nil {
            findings.append(Finding(check: "macros", passed: false, detail: "request \(request.index) still has an unexpanded macro: \(request.url)", warning: true))
        }
    }

    /// The requests matched to each row (the first row whose template matches), in capture order; `matched` and
    /// `unmatched` filled on the way.
    private mutating func match(_ requests: [CapturedRequest], to rows: [AdInspection.Tracking]) -> [[Hit]] {
        let assignment = CaptureAssignment(requests, to: rows.map(\.url))
        (matched, unmatched) = (assignment.matched, assignment.unmatched)
        return assignment.seen
    }

    /// A request matched to a row, with the values its macros had.
    typealias Hit = CaptureAssignment.Hit

    /// Each row's tracker: how many requests the capture must hold for it — for a full play, or for the early end the
    /// capture shows — and its verdict.
    private static func trackers(_ rows: [AdInspection.Tracking], seen: [[Hit]], duration: Duration?, tolerance: Double) -> [Tracker] {
        func count(_ event: String) -> Int { rows.indices.filter { rows[$0].event == event }.reduce(0) { $0 + seen[$1].count } }
        // Where the video ended early, if the capture shows it: a skip, or a close before the end (by its playhead
        // macro, or without a complete) — a close of the end card after the video is not early.
        let ends = rows.indices.filter { ["skip", "closeLinear", "close"].contains(rows[$0].event) }.flatMap { seen[$0] }
        let endPlayhead: Double? = ends.compactMap { Self.playhead($0.macros) }.filter { at in duration.map { at < $0.seconds - tolerance } ?? true }.min()
        let earlyEnd = count("skip") > 0 || endPlayhead != nil || (!ends.isEmpty && count("complete") == 0)
        return rows.enumerated().map { index, row in
            let offset = row.offset.flatMap(TimeOffset.init(parsing:)).flatMap { offset in duration.map { offset.resolve(against: $0) } }
            var (minimum, maximum): (Int, Int?)
            switch row.event {
            case "impression", "creativeView", "start": (minimum, maximum) = (1, 1)
            case "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress":
                let share = Self.milestones.first { $0.event == row.event }?.share
                let at = offset?.seconds ?? share.flatMap { share in duration.map { $0.seconds * share } }
                if let end = endPlayhead, let at {
                    (minimum, maximum) = at <= end + tolerance ? (at <= end - tolerance ? 1 : 0, 1) : (0, 0)
                } else {
                    (minimum, maximum) = earlyEnd ? (0, 1) : (1, 1)
                }
            case "loaded", "companion.creativeView", "icon.viewTracking", "viewable", "notViewable", "viewUndetermined", "verificationNotExecuted":
                (minimum, maximum) = (0, 1)
            case "nurl", "burl":
                // An OpenRTB bid's notices (`--bid`): once at most; the exchange may send them from its servers, so
                // a device's capture need not hold them.
                (minimum, maximum) = (0, 1)
            default: (minimum, maximum) = (0, nil)
            }
            let hits = seen[index]
            let verdict: Verdict = hits.count < minimum ? .missing : maximum.map { hits.count > $0 } == true ? .duplicated : .ok
            return Tracker(event: row.event, source: row.source, template: row.url, offset: offset, minimum: minimum, maximum: maximum,
                           seen: hits.count, first: hits.compactMap(\.request.sentAt).min(), verdict: verdict)
        }
    }

    /// Order: impression, start, the quartiles, complete, each first one not before the one before it. Requests sent
    /// within `simultaneousMilliseconds` of each other are simultaneous (a player fires impression and start
    /// together, and a sink receives them in either order).
    private static func orderFindings(times: (String) -> [Int64]) -> [Finding] {
        var findings: [Finding] = []
        var previous: (event: String, at: Int64)?
        var order = true
        for event in ["impression"] + Self.milestones.map(\.event) {
            guard let at = times(event).first else { continue }
            if let previous, previous.at - at > Self.simultaneousMilliseconds {
                order = false
                findings.append(Finding(check: "order.\(event)", passed: false,
                                        detail: "\(event) was sent \(Self.seconds(Double(previous.at - at) / 1000)) s before \(previous.event)"))
            }
            previous = (event, at)
        }
        if order, previous != nil { findings.append(Finding(check: "order", passed: true, detail: "impression, start, quartiles and complete in order")) }
        return findings
    }

    /// A row's playhead macros against its event's moment (and a skip's against the skip offset).
    private func playheadFindings(_ row: AdInspection.Tracking, hits: [Hit], tracker: Tracker, skipOffset: TimeOffset?) -> [Finding] {
        var findings: [Finding] = []
        let expected: Double?
        switch row.event {
        case "impression", "creativeView", "start": expected = 0
        case "firstQuartile", "midpoint", "thirdQuartile", "complete":
            expected = duration.map { $0.seconds * (Self.milestones.first { $0.event == row.event }?.share ?? 0) }
        case "progress": expected = tracker.offset?.seconds
        default: expected = nil
        }
        for hit in hits {
            if let contentTime, let written = hit.macros["CONTENTPLAYHEAD"] ?? hit.macros["MEDIAPLAYHEAD"], let value = VASTTime.parseDuration(written) {
                let ok = abs(value.seconds - contentTime.seconds) <= tolerance
                findings.append(Finding(check: "playhead.content.\(row.event)", passed: ok,
                                        detail: "\(row.event) (request \(hit.request.index)) says content playhead \(Self.seconds(value.seconds)) s; the break is at content \(Self.seconds(contentTime.seconds)) s"))
            }
            guard let value = Self.playhead(hit.macros, adOnly: contentTime != nil) else { continue }
            if let expected {
                let ok = abs(value - expected) <= tolerance
                findings.append(Finding(check: "playhead.\(row.event)", passed: ok,
                                        detail: "\(row.event) (request \(hit.request.index)) says playhead \(Self.seconds(value)) s; its event is at \(Self.seconds(expected)) s"))
                // A quartile fires when the playhead reaches it: a playhead before its moment is a player reporting an
                // older playhead (vast-client-js sends the previous call's), within the tolerance or not.
                if ok, value < expected - Self.playheadSlack {
                    findings.append(Finding(check: "playhead.early.\(row.event)", passed: true,
                                            detail: "\(row.event) (request \(hit.request.index)) says playhead \(Self.seconds(value)) s, \(Self.seconds(expected - value)) s before its moment: the player reports an older playhead",
                                            warning: true))
                }
            }
            if row.event == "skip", let skipOffset, let duration {
                let at = skipOffset.resolve(against: duration).seconds
                findings.append(Finding(check: "playhead.skip", passed: value + tolerance >= at,
                                        detail: "skip at playhead \(Self.seconds(value)) s; the skip offset is \(Self.seconds(at)) s"))
            }
        }
        return findings
    }

    /// [ERRORCODE] on a row's error requests: a VAST code.
    private static func errorCodeFindings(_ row: AdInspection.Tracking, hits: [Hit]) -> [Finding] {
        guard row.event == "error", row.url.localizedCaseInsensitiveContains("ERRORCODE") else { return [] }
        return hits.map { hit in
            let code = hit.macros["ERRORCODE"] ?? ""
            let ok = Int(code).map { (100...999).contains($0) } ?? false
            return Finding(check: "errorcode", passed: ok,
                           detail: ok ? "error (request \(hit.request.index)) carries VAST code \(code)" : "error (request \(hit.request.index)) carries [ERRORCODE] = \"\(code)\", not a VAST code")
        }
    }

    /// The playhead a request's macros carry (`[ADPLAYHEAD]`, else `[CONTENTPLAYHEAD]`, `[MEDIAPLAYHEAD]`: around a
    /// rewarded ad there is no content; `adOnly` in a VMAP break, where there is), seconds.
    static func playhead(_ macros: [String: String], adOnly: Bool = false) -> Double? {
        for name in adOnly ? ["ADPLAYHEAD"] : ["ADPLAYHEAD", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD"] {
            if let value = macros[name], let duration = VASTTime.parseDuration(value) { return duration.seconds }
        }
        return nil
    }

    /// A request that matches nothing but looks like tracking: to a host the plan's URLs use, or with a tracking-ish
    /// path.
    static func looksLikeTracking(_ capture: TemplateMatcher.Capture, planHosts: Set<String>) -> Bool {
        if let host = capture.host, planHosts.contains(host) { return true }
        let path = capture.lowercasedPath
        return ["track", "impression", "imp", "pixel", "beacon", "quartile", "event", "vast", "error", "pagead", "activeview"]
            .contains { path.contains($0) }
    }

    /// Timing: with a start and a complete and no pause between, the quartiles at their shares of that span (each
    /// one's lateness reported), the span the media's duration, and a play whose quartiles came bunched together.
    static func timingFindings(times: (String) -> [Int64], paused: Bool, duration: Duration?, tolerance: Double) -> [Finding] {
        var findings: [Finding] = []
        // A complete at start's very millisecond is judged too: a play whose beacons all share one instant (fired
        // together at the end) fails the duration and bunching checks, not skips them.
        if let start = times("start").first, let complete = times("complete").first, complete >= start {
            let span = Double(complete - start) / 1000
            if paused {
                findings.append(Finding(check: "timing", passed: true, detail: "paused during the play: quartile times not checked", warning: true))
            } else {
                for (event, share) in Self.milestones.dropFirst().dropLast() {
                    guard let at = times(event).first else { continue }
                    let actual = Double(at - start) / 1000, expected = span * share
                    let ok = abs(actual - expected) <= tolerance
                    // Its lateness against its moment, reported whether it passes or not: a player polling every 265 ms
                    // and one polling every second both pass a 1 s tolerance, and differ here.
                    findings.append(Finding(check: "timing.\(event)", passed: ok,
                                            detail: "\(event) \(Self.seconds(actual)) s after start, expected \(Self.seconds(expected)) s ± \(Self.seconds(tolerance)) s (\(Self.lateness(actual - expected)))"))
                }
                if let duration {
                    let ok = abs(span - duration.seconds) <= tolerance
                    findings.append(Finding(check: "timing.duration", passed: ok,
                                            detail: "start to complete took \(Self.seconds(span)) s; the media lasts \(Self.seconds(duration.seconds)) s"))
                }
                let quartiles = Self.milestones.dropFirst().compactMap { times($0.event).first }
                if let duration, quartiles.count == 4, let low = quartiles.min(), let high = quartiles.max(),
                   Double(high - low) / 1000 < duration.seconds / 4 {
                    findings.append(Finding(check: "timing.bunched", passed: false,
                                            detail: "the quartiles and complete were sent within \(Self.seconds(Double(high - low) / 1000)) s of each other; they span 75 % of a \(Self.seconds(duration.seconds)) s ad"))
                }
            }
        }
        return findings
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// "late by 0.265 s", "early by 0.010 s", "on time".
    static func lateness(_ seconds: Double) -> String {
        if abs(seconds) < 0.0005 { return "on time" }
        return seconds > 0 ? "late by \(Self.seconds(seconds)) s" : "early by \(Self.seconds(-seconds)) s"
    }

    /// How far before its moment a playhead macro may be without being called early: `[ADPLAYHEAD]` is written to
    /// the millisecond.
    static let playheadSlack = 0.0015
}
