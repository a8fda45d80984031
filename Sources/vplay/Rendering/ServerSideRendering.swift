import AdSession
import Primitives

/// Server-side mode (`--ssai server`) in the console, JSON lines and the report.
enum ServerSideRendering {
    /// The summary's `serverSide` object.
    static func summary(_ report: ServerSideReport) -> JSON {
        .object([
            ("segment", .seconds(report.insertion.segment)), ("prefetch", .int(report.insertion.prefetch)),
            ("deviceIP", .string(report.insertion.deviceIP)), ("forwardedFor", .bool(report.insertion.forwardedFor)),
            ("serverUserAgent", .string(report.insertion.serverUserAgent)),
            ("events", .array(report.timings.map { timing in
                .object([
                    ("ad", .int(timing.ad)), ("event", .string(timing.event)), ("offset", timing.offset.map(JSON.seconds) ?? .null),
                    ("point", .seconds(timing.point)), ("segment", .int(timing.segment)), ("requestPlayhead", .seconds(timing.requestPlayhead)),
                    ("serverClock", .seconds(timing.serverClock)), ("clientClock", timing.clientClock.map(JSON.seconds) ?? .null),
                    ("lead", timing.lead.map(JSON.seconds) ?? .null), ("beacons", .int(timing.beacons)),
                ])
            })),
            ("unseen", .int(report.unseen.count)),
        ])
    }

    /// The console summary's rows: the mode, then each event the stitcher fired with how far it ran ahead.
    static func rows(_ report: ServerSideReport) -> [(String, String)] {
        var rows: [(String, String)] = [("ssai", "server: \(report.insertion.segment.millisecondText) s segments, prefetch \(report.insertion.prefetch), X-Device-IP \(report.insertion.deviceIP)")]
        for timing in report.timings {
            let name = timing.event + (timing.offset.map { " \($0.millisecondText)" } ?? "")
            let client = timing.clientClock.map { "client \($0.millisecondText) s, \(timing.lead!.millisecondText) s ahead" } ?? "never reached by the viewer"
            rows.append(("", "\(name): segment \(timing.segment), server \(timing.serverClock.millisecondText) s, \(client)"))
        }
        return rows
    }
}
