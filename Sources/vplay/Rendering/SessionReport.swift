import Primitives
import AdSession
import Foundation
import TrackingBeacons

/// `--report FILE.json`: the whole session in one document — the chain, the chosen media, every event and beacon
/// attempt (in the JSON Lines shapes), warnings, errors, the sink's reconciliation, expectation results, the summary.
enum SessionReport {
    /// `session`: the session's id, as every record in it carries it (`[TRANSACTIONID]`).
    static func json(tag: String, transcript: SessionTranscript, summary: SessionSummary, exitCode: Int32,
                     expectations: [ExpectationResult]?, configuration: SessionConfiguration, session: String) -> JSON {
        var pairs: [(String, JSON)] = [
            ("vplay", .object([("version", .string("0.1")), ("report", .int(2))])),
            ("session", .string(session)),
            ("tag", .string(tag)),
            ("configuration", .object([
                ("clockMode", .string(configuration.clock == .virtual ? "virtual" : "realtime")),
                ("speed", { if case let .realtime(speed) = configuration.clock { return .number(speed) } else { return .null } }()),
                ("seed", .string(String(configuration.seed))), ("now", configuration.now.map { .string(ISO8601Time.text(milliseconds: $0)) } ?? .null),
                ("dryRun", .bool(configuration.dryRun)), ("sink", .optional(configuration.sink?.rawValue)),
                ("script", .array(configuration.script.steps.map { .object([("at", .seconds($0.at)), ("ad", .optional($0.ad)), ("step", .string($0.text))]) })),
                ("pod", .string(configuration.pod.rawValue)),
            ])),
            ("chain", .array(summary.hops.map { hop in
                let (status, code) = InspectRendering.outcome(hop.outcome)
                return .object([("depth", .int(hop.depth)), ("url", .string(hop.url)), ("status", .string(status)), ("code", .optional(code)),
                                ("time", .seconds(hop.elapsed)), ("adSystems", .array(hop.adSystems.map(JSON.string)))])
            })),
            ("resolved", transcript.resolved.map { SessionJSON.line(.resolved($0), session: session) } ?? .null),
            ("events", .array(transcript.events.map { SessionJSON.line(.event($0), session: session) })),
            ("beacons", .array(transcript.beacons.map { SessionJSON.line(.beacon($0), session: session) })),
            ("warnings", .array(transcript.warnings.map(JSON.string))),
            ("errors", .array(transcript.errors.map { SessionJSON.line(.error($0), session: session) })),
            // An ad pod: each ad tried, in order (outcome, VAST code, substitute, played time, beacons).
            ("ads", .array(transcript.ads.map { .object(SessionJSON.podAd($0)) })),
            ("reconciliation", transcript.reconciliation.map { SessionJSON.line(.reconciliation($0), session: session) } ?? .null),
        ]
        if let expectations { pairs.append(("expectations", SessionJSON.expectations(expectations, session: session))) }
        pairs.append(("summary", SessionJSON.summary(summary, exitCode: exitCode, expectations: expectations, session: session)))
        return .object(pairs)
    }
}
