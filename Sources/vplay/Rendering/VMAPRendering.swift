import AdSession
import Primitives
import VAST

/// A VMAP session's breaks and schedule in the console, JSON lines and the report.
enum VMAPRendering {
    /// One break's keys: the `break` record and each row of the summary's `vmap.breaks`.
    static func breakPairs(_ report: VMAPBreakReport) -> [(String, JSON)] {
        [
            ("number", .int(report.number)), ("adBreak", .int(report.documentIndex)), ("occurrence", .int(report.occurrence)),
            ("breakId", .optional(report.breakID)), ("timeOffset", .string(report.offsetText)), ("contentTime", .seconds(report.contentTime)),
            ("position", .int(report.position)), ("breakType", .array(report.types.map(JSON.string))), ("source", .string(report.source)),
            ("tagURL", .optional(report.tagURL)), ("outcome", .string(report.outcome.rawValue)),
            ("requestedAt", report.requestedAt.map(JSON.seconds) ?? .null),
            ("startClock", report.start.map(JSON.seconds) ?? .null), ("endClock", report.end.map(JSON.seconds) ?? .null),
            ("adsPlayed", .int(report.adsPlayed)), ("adsTried", .int(report.adsTried)),
            ("errors", .array(report.errors.map { .object([("code", .int($0.code)), ("message", .string($0.message))]) })),
            ("beacons", .int(report.beacons)),
        ]
    }

    /// The summary's `vmap` object.
    static func summary(_ run: VMAPRunReport) -> JSON {
        var pairs: [(String, JSON)] = [
            ("version", .string(run.version)), ("namespace", .string(run.namespace == .other ? "other" : run.namespace.rawValue)),
            ("contentDuration", .seconds(run.contentDuration)), ("contentDurationGiven", .bool(run.contentDurationGiven)),
            ("breakPrefetch", .seconds(run.breakPrefetch)),
            ("contentComplete", run.contentComplete.map(JSON.seconds) ?? .null),
            ("content", .array(run.content.map { .object([("from", .seconds($0.from)), ("to", .seconds($0.to)), ("startClock", .seconds($0.start)), ("endClock", .seconds($0.end))]) })),
            ("breaks", .array(run.breaks.map { .object(breakPairs($0)) })),
            ("notes", .array(run.notes.map(JSON.string))),
        ]
        if let error = run.documentError {
            pairs.append(("error", .object([("code", .int(error.code.rawValue)), ("message", .string(error.message))])))
        }
        return .object(pairs)
    }

    /// `══ break 2 (AdBreak 2, 00:00:10.000, mid-roll, adTagURI): played 1 of 1 ad(s), clock 15.000–25.000, 9 beacon(s)`.
    static func text(_ report: VMAPBreakReport) -> String {
        let position = ["", "pre-roll", "mid-roll", "post-roll"][min(max(report.position, 0), 3)]
        var text = "══ break \(report.number) (AdBreak \(report.documentIndex)\(report.occurrence > 0 ? " repeat \(report.occurrence)" : ""), \(report.offsetText) → content \(report.contentTime.millisecondText) s, \(position), \(report.source)): \(report.outcome.rawValue)"
        if report.adsTried > 0 { text += " \(report.adsPlayed) of \(report.adsTried) ad(s)" }
        if let start = report.start, let end = report.end, end > start { text += ", clock \(start.millisecondText)–\(end.millisecondText)" }
        for error in report.errors { text += "; \(error.code): \(error.message)" }
        text += ", \(report.beacons) beacon(s)"
        return text
    }

    /// The schedule as the console's summary shows it, one line a break.
    static func rows(_ run: VMAPRunReport) -> [(String, String)] {
        var rows: [(String, String)] = [("vmap", "\(run.version), content \(run.contentDuration.millisecondText) s\(run.contentDurationGiven ? "" : " (assumed)"), prefetch \(run.breakPrefetch.millisecondText) s")]
        if let error = run.documentError { rows.append(("error", "\(error.code.rawValue): \(error.message)")) }
        for report in run.breaks {
            rows.append(("break \(report.number)", "\(report.offsetText): \(report.outcome.rawValue)\(report.errors.first.map { " (\($0.code))" } ?? "")"))
        }
        if run.documentError == nil {
            rows.append(("complete", run.contentComplete.map { "at clock \($0.millisecondText) s" } ?? "never signalled"))
        }
        return rows
    }
}
