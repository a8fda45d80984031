import AdSession
import ArgumentParser
import Foundation
import Primitives

extension AuditCommand {
    /// The audit of a VMAP session's capture, break by break (`VMAPAudit`): exit 3 when the document cannot play,
    /// 1 when a check of a break the capture reached fails, else 0.
    func finish(_ inspection: VMAPInspection, requests: [CapturedRequest], started: Date, seconds: Double) throws {
        if let error = inspection.document.documentError {
            StandardStreams.fail("audit: VMAP \(error.code.rawValue): \(error.message)")
            throw ExitCode(ExitCode.adError.rawValue)
        }
        let audit = VMAPAudit(inspection: inspection, requests: requests, tolerance: tolerance.seconds)
        let document = Self.json(audit, tag: tag.vast, requests: requests.count)
        if json { StandardStreams.print(document.text) } else { StandardStreams.say(Self.text(audit, requests: requests.count)) }
        var failures: [String] = []
        if let report {
            do { try OutputFile.write(document.text + "\n", to: report, option: "--report") } catch { failures.append("\(error)") }
        }
        if let junit {
            let results = audit.breaks.flatMap { item -> [ExpectationResult] in
                let name = "break \(item.report.number) (\(item.report.offsetText))"
                var results = [ExpectationResult(name: "\(name): breakStart and breakEnd once each", passed: item.edgesHold,
                                                 detail: item.edgesHold ? nil : "breakStart \(item.breakStarts ?? 0), breakEnd \(item.breakEnds ?? 0)")]
                results += (item.audit.map(Self.results) ?? []).map { ExpectationResult(name: "\(name): \($0.name)", passed: $0.passed, detail: $0.detail) }
                return results
            }
            do {
                try OutputFile.write(JUnitReport.xml(suite: "audit \(tag.vast)", command: "audit", subject: tag.vast, results: results, started: started,
                                                     hostname: ProcessInfo.processInfo.hostName, seconds: seconds), to: junit, option: "--junit")
            } catch { failures.append("\(error)") }
        }
        let failed = audit.breaks.filter { !$0.passed }.map { "break \($0.report.number)" }
        try CommandOutputs.exit(audit.passed ? 0 : 1, failures: failures, signalled: false,
                                reason: audit.passed ? nil : "audit checks failed in \(failed.joined(separator: ", "))")
    }

    static func json(_ audit: VMAPAudit, tag: String, requests: Int) -> JSON {
        .object([
            ("kind", .string("auditVMAP")), ("tag", .string(tag)), ("passed", .bool(audit.passed)), ("requests", .int(requests)),
            ("breaks", .array(audit.breaks.map { item in
                .object([
                    ("number", .int(item.report.number)), ("adBreak", .int(item.report.documentIndex)), ("timeOffset", .string(item.report.offsetText)),
                    ("contentTime", .seconds(item.report.contentTime)), ("reached", .bool(item.reached)), ("requests", .int(item.requests.count)),
                    ("breakStart", .optional(item.breakStarts)), ("breakEnd", .optional(item.breakEnds)), ("passed", .bool(item.passed)),
                    ("audit", item.audit.map { json($0, tag: tag, requests: item.requests.count) } ?? .null),
                ])
            })),
            ("unassigned", .array(audit.unassigned.map { .object([("index", .int($0.index)), ("url", .string($0.url))]) })),
        ])
    }

    static func text(_ audit: VMAPAudit, requests: Int) -> String {
        var lines = ["audit of a VMAP session: \(requests) requests, \(audit.breaks.filter(\.reached).count) of \(audit.breaks.count) breaks reached"]
        for item in audit.breaks {
            lines.append("")
            var head = "══ break \(item.report.number) (AdBreak \(item.report.documentIndex), \(item.report.offsetText)): "
            head += item.reached ? "\(item.requests.count) requests" : "not reached by the capture"
            if let starts = item.breakStarts { head += ", breakStart seen \(starts)" }
            if let ends = item.breakEnds { head += ", breakEnd seen \(ends)" }
            if item.reached, !item.edgesHold { head += " — FAIL: each must fire once" }
            lines.append(head)
            if let breakAudit = item.audit { lines += text(breakAudit, requests: item.requests.count).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
        }
        if !audit.unassigned.isEmpty {
            lines.append("")
            lines += audit.unassigned.prefix(maxUnmatchedLines).map { "unassigned (request \($0.index)): \($0.url.prefix(500))" }
        }
        lines.append("")
        lines.append("audit: " + (audit.passed ? "every check holds" : "checks failed") + " (exit \(audit.passed ? 0 : 1))")
        return lines.joined(separator: "\n")
    }
}
