import AdSession
import ArgumentParser
import Findings
import Foundation
import Primitives

extension InspectCommand {
    /// `inspect --tracking-doc DOC`: the document's avails, ads and events, each with the document's time, vplay's
    /// rule and who fires it, and the findings, without playing. Exit 3 when it cannot be read; with `--strict`, 1
    /// when a finding is a warning under the team's config file.
    func inspectTracking(_ configuration: SessionConfiguration) async throws {
        let document: TrackingDocument
        switch await TrackedStreamRunner(configuration: configuration).document() {
        case let .failure(error):
            try CommandOutputs.exit(ExitCode.adError.rawValue, reason: "tracking document: \(error.message)")
            return
        case let .success(read): document = read
        }
        let playback = TrackedStreamPlayback(streamDuration: vmap.contentDuration, reporting: reporting)
        let schedule = TrackedStreamRunner.schedule(document, url: tag.vast, playback: playback)
        if json { StandardStreams.print(Self.json(schedule).text) } else { StandardStreams.say(Self.text(schedule)) }
        let policy = strict ? try LintCommand.policy(config: nil, rules: []) : RulePolicy()
        let failing = strict ? schedule.findings.filter { text in
            guard let id = text.split(separator: ":").first.map(String.init), let rule = RuleCatalogue.standard.rule(id) else { return false }
            return (policy.severity(of: rule) ?? .info) != .info
        }.count : 0
        try CommandOutputs.exit(failing > 0 ? ExitCode.expectationFailed.rawValue : 0,
                                reason: "the tracking document draws \(failing) warning\(failing == 1 ? "" : "s") (--strict)")
    }

    /// Who fires an event of `type` under `reporting`: the player (by the stream's time), the server, or the viewer
    /// (an action).
    static func firedBy(_ type: String, reporting: TrackedStreamPlayback.Reporting) -> String {
        guard TrackingDocument.timedTypes.contains(type) else { return "viewer" }
        return reporting == .hybrid && TrackingDocument.serverTypesInHybrid.contains(type) ? "server" : "player"
    }

    static func json(_ schedule: TrackedStreamReport) -> JSON {
        func event(_ event: TrackedStreamReport.EventReport) -> JSON {
            .object([("type", .string(event.type)), ("eventId", .optional(event.eventID)), ("documentTime", .seconds(event.documentTime)),
                     ("ruleTime", event.ruleTime.map(JSON.seconds) ?? .null), ("firedBy", .string(firedBy(event.type, reporting: schedule.reporting)))])
        }
        return .object([
            ("kind", .string("inspectTracking")), ("document", .string(schedule.documentURL)), ("reporting", .string(schedule.reporting.rawValue)),
            ("streamDuration", .seconds(schedule.streamDuration)), ("streamDurationGiven", .bool(schedule.streamDurationGiven)),
            ("avails", TrackedStreamRendering.avails(schedule, event: event)),
            ("findings", .array(schedule.findings.map(JSON.string))),
        ])
    }

    static func text(_ schedule: TrackedStreamReport) -> String {
        var lines = ["tracking document \(schedule.documentURL): \(schedule.avails.count) avail(s), \(schedule.reporting.rawValue) reporting, stream \(schedule.streamDuration.millisecondText) s\(schedule.streamDurationGiven ? "" : " (assumed)")"]
        func row(_ event: TrackedStreamReport.EventReport) -> String {
            let rule = event.ruleTime.map { $0 == event.documentTime ? "" : " (rule: \($0.millisecondText) s)" } ?? ""
            return "    \(event.documentTime.millisecondText) s  \(event.type)\(rule) — \(firedBy(event.type, reporting: schedule.reporting))"
        }
        for avail in schedule.avails {
            lines.append("══ avail \(avail.number)\(avail.availID.map { " (\($0))" } ?? ""): \(avail.start.millisecondText)–\(avail.end.millisecondText) s, \(avail.ads.count) ad(s)")
            lines += avail.breakEvents.map(row)
            for ad in avail.ads {
                lines.append("  ad \(ad.number)\(ad.adID.map { " (\($0))" } ?? ""): \(ad.start.millisecondText) s, \(ad.duration.millisecondText) s")
                lines += ad.events.map(row)
            }
        }
        if !schedule.findings.isEmpty { lines.append("") }
        lines += schedule.findings.map { "finding: \($0)" }
        return lines.joined(separator: "\n")
    }
}
