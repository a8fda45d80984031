import AdSession
import Primitives

/// A stream played by its tracking document (`--tracking-doc`) in the console, JSON lines and the report.
enum TrackedStreamRendering {
    static func event(_ event: TrackedStreamReport.EventReport) -> JSON {
        .object([
            ("type", .string(event.type)), ("eventId", .optional(event.eventID)), ("documentTime", .seconds(event.documentTime)),
            ("ruleTime", event.ruleTime.map(JSON.seconds) ?? .null), ("firedClock", event.firedAt.map(JSON.seconds) ?? .null),
            ("status", .string(event.status.rawValue)), ("beacons", .int(event.beacons)),
        ])
    }

    /// The summary's `tracking` object.
    static func summary(_ report: TrackedStreamReport) -> JSON {
        var pairs: [(String, JSON)] = [
            ("document", .string(report.documentURL)), ("reporting", .string(report.reporting.rawValue)),
            ("streamDuration", .seconds(report.streamDuration)), ("streamDurationGiven", .bool(report.streamDurationGiven)), ("polls", .int(report.polls)),
            ("content", .array(report.content.map { .object([("from", .seconds($0.from)), ("to", .seconds($0.to)), ("startClock", .seconds($0.start)), ("endClock", .seconds($0.end))]) })),
            ("avails", avails(report, event: event)),
            ("findings", .array(report.findings.map(JSON.string))),
        ]
        if let error = report.documentError { pairs.append(("error", .object([("message", .string(error.message))]))) }
        return .object(pairs)
    }

    /// Each avail with its own events and its ads', each event as `event` writes it (the run's fate, or inspect's
    /// who fires it).
    static func avails(_ report: TrackedStreamReport, event: (TrackedStreamReport.EventReport) -> JSON) -> JSON {
        .array(report.avails.map { avail in
            .object([
                ("number", .int(avail.number)), ("availId", .optional(avail.availID)), ("start", .seconds(avail.start)), ("duration", .seconds(avail.duration)),
                ("events", .array(avail.breakEvents.map(event))),
                ("ads", .array(avail.ads.map { ad in
                    .object([("number", .int(ad.number)), ("adId", .optional(ad.adID)), ("start", .seconds(ad.start)), ("duration", .seconds(ad.duration)),
                             ("events", .array(ad.events.map(event)))])
                })),
            ])
        })
    }

    /// The console summary's rows: the document, then one row an avail.
    static func rows(_ report: TrackedStreamReport) -> [(String, String)] {
        var rows: [(String, String)] = [("tracking", "\(report.reporting.rawValue) reporting, stream \(report.streamDuration.millisecondText) s\(report.streamDurationGiven ? "" : " (assumed)"), \(report.polls) fetch(es)")]
        if let error = report.documentError { rows.append(("error", error.message)) }
        for avail in report.avails {
            let events = avail.breakEvents + avail.ads.flatMap(\.events)
            let counts = Dictionary(grouping: events, by: \.status).map { "\($0.value.count) \($0.key.rawValue)" }.sorted().joined(separator: ", ")
            rows.append(("avail \(avail.number)", "\(avail.start.millisecondText)–\(avail.end.millisecondText) s, \(avail.ads.count) ad(s), events: \(counts)"))
        }
        return rows
    }
}

extension TrackedStreamReport.AvailReport {
    var end: Duration { start + duration }
}
