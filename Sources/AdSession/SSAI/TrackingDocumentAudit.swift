import Foundation
import Primitives

/// `vplay audit --tracking-doc DOC --har CAPTURE`: judges what a device fired against a stitcher's client-side
/// tracking document. Each captured request is matched to a beacon URL of the document (`TemplateMatcher`: macros
/// match any value). Every timed event the player fires must be seen once, up to where the capture shows the viewer
/// stopped (its last request, on the stream's timeline); in hybrid reporting the server's events must not be seen at
/// all (a player firing them counts them twice); the viewer's own events any number of times. The capture is put on
/// the stream's timeline by its first timed beacon, and each timed beacon's lateness against the document's time is
/// checked within the tolerance (not when the capture shows a pause: the stream's time then stops).
public struct TrackingDocumentAudit: Sendable {
    /// One beacon URL of the document, with how often the capture must and does hold it.
    public struct Row: Sendable {
        public var avail: Int
        /// The ad's place in its avail; nil for the avail's own events.
        public var ad: Int?
        public var event: String
        public var template: String
        public var documentTime: Duration
        public var minimum: Int
        public var maximum: Int?
        public var seen: Int
        /// The first matching request's send time, ms since 1970.
        public var first: Int64?
        public var verdict: BeaconAudit.Verdict
        /// Seconds after the document's time the first one came, on the capture's stream timeline; nil without times.
        public var lateness: Double?
    }

    public var rows: [Row] = []
    public var findings: [BeaconAudit.Finding] = []
    /// Requests to a host of the document's beacons (or that look like tracking) that match none of them.
    public var unmatched: [CapturedRequest] = []
    public var matched = 0
    public var tolerance: Double
    public var reporting: TrackedStreamPlayback.Reporting
    /// Where the capture puts the viewer's last request on the stream's timeline; nil without times.
    public var reachedStreamTime: Duration?

    public var passed: Bool { rows.allSatisfy { $0.verdict == .ok } && findings.allSatisfy { $0.passed || $0.warning } }

    public init(document: TrackingDocument, requests: [CapturedRequest], reporting: TrackedStreamPlayback.Reporting = .client, tolerance: Double = 1) {
        self.tolerance = tolerance
        self.reporting = reporting
        var entries: [(avail: Int, ad: Int?, event: TrackingDocument.Event, url: String)] = []
        for (availIndex, avail) in document.avails.enumerated() {
            for event in avail.breakEvents { entries += event.beaconURLs.map { (availIndex + 1, nil, event, $0) } }
            for (adIndex, ad) in avail.ads.enumerated() {
                for event in ad.events { entries += event.beaconURLs.map { (availIndex + 1, adIndex + 1, event, $0) } }
            }
        }
        let assignment = CaptureAssignment(requests, to: entries.map(\.url))
        let seen = assignment.seen.map { $0.map(\.request) }
        (matched, unmatched) = (assignment.matched.count, assignment.unmatched)
        // The capture on the stream's timeline: its first timed beacon is at that beacon's document time.
        let timed = entries.indices.filter { TrackingDocument.timedTypes.contains(entries[$0].event.type) }
        let anchor = timed.compactMap { index in seen[index].compactMap(\.sentAt).min().map { ($0, entries[index].event.start) } }.min { $0.0 < $1.0 }
        let offset = anchor.map { $0.0 - $0.1.wholeMilliseconds }
        let last = seen.flatMap { $0.compactMap(\.sentAt) }.max()
        if let offset, let last { reachedStreamTime = .milliseconds(last - offset) }
        let slack = Duration.milliseconds(Int64(tolerance * 1000))
        rows = entries.indices.map { index in
            let (avail, ad, event, url) = entries[index]
            var (minimum, maximum): (Int, Int?) = (0, nil)
            if TrackingDocument.timedTypes.contains(event.type) {
                if reporting == .hybrid, TrackingDocument.serverTypesInHybrid.contains(event.type) {
                    (minimum, maximum) = (0, 0)
                } else {
                    let reached = reachedStreamTime.map { event.start + slack <= $0 } ?? true
                    (minimum, maximum) = (reached ? 1 : 0, 1)
                }
            }
            let hits = seen[index]
            let first = hits.compactMap(\.sentAt).min()
            let lateness = first.flatMap { first in offset.map { Double(first - $0 - event.start.wholeMilliseconds) / 1000 } }
            let verdict: BeaconAudit.Verdict = hits.count < minimum ? .missing : maximum.map { hits.count > $0 } == true ? .duplicated : .ok
            return Row(avail: avail, ad: ad, event: event.type, template: url, documentTime: event.start, minimum: minimum, maximum: maximum,
                       seen: hits.count, first: first, verdict: verdict, lateness: TrackingDocument.timedTypes.contains(event.type) ? lateness : nil)
        }
        findings = timingFindings()
    }

    /// Each timed beacon's lateness within the tolerance; with a pause or resume captured, a warning instead (the
    /// stream stopped, so the document's times no longer line up).
    private func timingFindings() -> [BeaconAudit.Finding] {
        let paused = rows.contains { ["pause", "resume"].contains($0.event) && $0.seen > 0 }
        let judged = rows.filter { $0.lateness != nil && $0.maximum != 0 }
        guard !judged.isEmpty else { return [] }
        if paused {
            return [BeaconAudit.Finding(check: "timing", passed: true, detail: "the capture shows a pause: the timing of the beacons after it is not judged", warning: true)]
        }
        let late = judged.filter { abs($0.lateness!) > tolerance }
        guard late.isEmpty else {
            return late.map { row in
                let place = row.ad.map { "avail \(row.avail) ad \($0)" } ?? "avail \(row.avail)"
                return BeaconAudit.Finding(check: "timing.\(row.event)", passed: false,
                                           detail: "\(place): \(row.event) came \(String(format: "%+.3f", row.lateness!)) s from its document time \(row.documentTime.seconds) s (tolerance \(tolerance) s)")
            }
        }
        let worst = judged.map { abs($0.lateness!) }.max() ?? 0
        return [BeaconAudit.Finding(check: "timing", passed: true, detail: "\(judged.count) timed beacons within \(tolerance) s of their document times (worst \(String(format: "%.3f", worst)) s)")]
    }
}
