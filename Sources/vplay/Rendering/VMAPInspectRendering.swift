import AdSession
import Primitives

/// `vplay inspect` of a VMAP document: the schedule, each break's own tracking and its ads' inspection.
enum VMAPInspectRendering {
    static func json(_ inspection: VMAPInspection, tag: String) -> JSON {
        guard case var .object(pairs) = VMAPRendering.summary(inspection.document) else { return .null }
        pairs.removeAll { $0.0 == "breaks" || $0.0 == "content" || $0.0 == "contentComplete" }
        pairs.append(("breaks", .array(inspection.breaks.map { item in
            .object(VMAPRendering.breakPairs(item.report) + [
                ("tracking", .array(item.tracking.map { .object([("event", .string($0.event)), ("url", .string($0.url))]) })),
                ("ads", item.ads.map(InspectRendering.json) ?? .null),
            ])
        })))
        return .object([("tag", .string(tag)), ("plays", .bool(inspection.plays)), ("vmap", .object(pairs))])
    }

    static func text(_ inspection: VMAPInspection) -> String {
        let document = inspection.document
        if let error = document.documentError { return "VMAP error \(error.code.rawValue): \(error.message)" }
        var lines = ["VMAP \(document.version), content \(document.contentDuration.millisecondText) s\(document.contentDurationGiven ? "" : " (assumed)"), break prefetch \(document.breakPrefetch.millisecondText) s"]
        lines += document.notes.map { "  note: \($0)" }
        for item in inspection.breaks {
            let report = item.report
            let position = ["", "pre-roll", "mid-roll", "post-roll"][min(max(report.position, 0), 3)]
            let verdict: String = switch report.outcome {
            case .played: "would play"
            case .skipped: "not played"
            default: "fails"
            }
            lines.append("")
            lines.append("break \(report.number) (AdBreak \(report.documentIndex)\(report.occurrence > 0 ? " repeat \(report.occurrence)" : ""), \(report.offsetText) → content \(report.contentTime.millisecondText) s, \(position), \(report.types.joined(separator: ",")), \(report.source)): \(verdict)")
            if let url = report.tagURL { lines.append("  AdTagURI \(url)") }
            for error in report.errors { lines.append("  error \(error.code): \(error.message)") }
            for tracking in item.tracking { lines.append("  \(tracking.event): \(tracking.url)") }
            if let ads = item.ads {
                lines += InspectRendering.text(ads).split(separator: "\n", omittingEmptySubsequences: false).map { "  │ " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }
}
