import Foundation
import Primitives

/// `vplay audit --vmap DOC`: judges a capture of a device's VMAP session break by break. The capture is split into
/// breaks by each break's own `breakStart` and `breakEnd` hits (what a device fires between a break's `breakStart`
/// and its `breakEnd` belongs to that break); a request outside any such pair goes to the earliest break not yet left
/// behind whose tracking it matches (a player that fires no break tracking). Each break the capture reached is then
/// audited as a tag is (`BeaconAudit`: counts, order, timing, playhead macros) against that break's ads, and its own
/// `breakStart` and `breakEnd` must each have fired once; a break the capture never reached is listed, not failed (the
/// viewer may have left first).
public struct VMAPAudit: Sendable {
    public struct Break: Sendable {
        /// The break as inspected: where it falls, whether its ads would play, its tracking.
        public var report: VMAPBreakReport
        /// Requests of the capture assigned to it.
        public var requests: [CapturedRequest]
        /// How many times its `breakStart` and `breakEnd` were seen; nil when the break has no such URL.
        public var breakStarts: Int?
        public var breakEnds: Int?
        /// Its ads' audit; nil when the capture never reached it or its ads do not play.
        public var audit: BeaconAudit?
        /// Whether the capture shows the break at all (its tracking or its ads' requests).
        public var reached: Bool { !requests.isEmpty || (breakStarts ?? 0) > 0 }

        /// Its own tracking fired once each, when reached.
        public var edgesHold: Bool { !reached || ((breakStarts ?? 1) == 1 && (breakEnds ?? 1) == 1) }
        public var passed: Bool { edgesHold && (audit?.passed ?? true) }
    }

    public var breaks: [Break] = []
    /// Requests no break took.
    public var unassigned: [CapturedRequest] = []
    public var passed: Bool { breaks.allSatisfy(\.passed) }

    public init(inspection: VMAPInspection, requests: [CapturedRequest], tolerance: Double = 1) {
        let items = inspection.breaks
        let edges = items.map { item -> (start: [TemplateMatcher], end: [TemplateMatcher]) in
            (item.tracking.filter { $0.event == "breakStart" }.compactMap { TemplateMatcher($0.url) },
             item.tracking.filter { $0.event == "breakEnd" }.compactMap { TemplateMatcher($0.url) })
        }
        let ads = items.map { item in (item.ads?.tracking ?? []).compactMap { TemplateMatcher($0.url) } }
        var assigned = Array(repeating: [CapturedRequest](), count: items.count)
        var starts = Array(repeating: 0, count: items.count), ends = Array(repeating: 0, count: items.count)
        var current: Int?
        var floor = 0
        for request in requests {
            guard let capture = TemplateMatcher.Capture(request.url) else {
                unassigned.append(request)
                continue
            }
            // Breaks come in order: a template several breaks share (a repeat's) is the next one's.
            func first(_ side: KeyPath<(start: [TemplateMatcher], end: [TemplateMatcher]), [TemplateMatcher]>, from start: Int) -> Int? {
                let matches = { (index: Int) in edges[index][keyPath: side].contains { $0.match(capture) != nil } }
                return (min(start, items.count)..<items.count).first(where: matches) ?? edges.indices.first(where: matches)
            }
            if let index = first(\.start, from: floor) {
                starts[index] += 1
                (current, floor) = (index, max(floor, index))
                continue
            }
            if let index = first(\.end, from: current ?? floor) {
                ends[index] += 1
                current = nil
                floor = max(floor, index + 1)
                continue
            }
            if let current {
                assigned[current].append(request)
            } else if let index = (floor..<items.count).first(where: { index in ads[index].contains { $0.match(capture) != nil } }) {
                assigned[index].append(request)
                floor = index
            } else {
                unassigned.append(request)
            }
        }
        breaks = items.indices.map { index in
            let item = items[index]
            var entry = Break(report: item.report, requests: assigned[index],
                              breakStarts: edges[index].start.isEmpty ? nil : starts[index], breakEnds: edges[index].end.isEmpty ? nil : ends[index])
            if entry.reached, let inspection = item.ads, inspection.ad != nil {
                entry.audit = BeaconAudit(inspection: inspection, requests: assigned[index], tolerance: tolerance, contentTime: item.report.contentTime)
            }
            return entry
        }
    }
}
