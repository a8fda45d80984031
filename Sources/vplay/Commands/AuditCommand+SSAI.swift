import AdSession
import ArgumentParser
import Foundation
import Primitives

extension AuditCommand {
    /// The audit of a capture against a stitcher's client-side tracking document (`TrackingDocumentAudit`): exit 3
    /// when the document cannot be read, 1 when a check fails, else 0.
    func finishTracking(_ configuration: SessionConfiguration, requests: [CapturedRequest], started: Date, seconds: () -> Double) async throws {
        let document: TrackingDocument
        switch await TrackedStreamRunner(configuration: configuration).document() {
        case let .failure(error):
            StandardStreams.fail("audit: tracking document: \(error.message)")
            throw ExitCode(ExitCode.adError.rawValue)
        case let .success(read): document = read
        }
        let audit = TrackingDocumentAudit(document: document, requests: requests, reporting: reporting, tolerance: tolerance.seconds)
        let output = Self.json(audit, document: tag.vast, requests: requests.count)
        if json { StandardStreams.print(output.text) } else { StandardStreams.say(Self.text(audit, requests: requests.count)) }
        var failures: [String] = []
        if let report {
            do { try OutputFile.write(output.text + "\n", to: report, option: "--report") } catch { failures.append("\(error)") }
        }
        if let junit {
            let results = audit.rows.map { row in
                ExpectationResult(name: "\(Self.place(row)) \(row.event) \(row.template)", passed: row.verdict == .ok,
                                  detail: row.verdict == .ok ? nil : "\(row.verdict.rawValue): seen \(row.seen), expected \(Self.range(minimum: row.minimum, maximum: row.maximum))")
            } + audit.findings.filter { !$0.warning }.map { ExpectationResult(name: $0.check, passed: $0.passed, detail: $0.passed ? nil : $0.detail) }
            do {
                try OutputFile.write(JUnitReport.xml(suite: "audit \(tag.vast)", command: "audit", subject: tag.vast, results: results, started: started,
                                                     hostname: ProcessInfo.processInfo.hostName, seconds: seconds()), to: junit, option: "--junit")
            } catch { failures.append("\(error)") }
        }
        let failed = audit.rows.filter { $0.verdict != .ok }.count + audit.findings.filter { !$0.passed && !$0.warning }.count
        try CommandOutputs.exit(audit.passed ? 0 : 1, failures: failures, signalled: false, reason: audit.passed ? nil : "\(failed) audit checks failed")
    }

    static func place(_ row: TrackingDocumentAudit.Row) -> String { row.ad.map { "avail \(row.avail) ad \($0)" } ?? "avail \(row.avail)" }

    static func range(minimum: Int, maximum: Int?) -> String {
        guard let maximum else { return "\(minimum) or more" }
        return minimum == maximum ? "\(maximum)" : "\(minimum) to \(maximum)"
    }

    static func json(_ audit: TrackingDocumentAudit, document: String, requests: Int) -> JSON {
        .object([
            ("kind", .string("auditTracking")), ("document", .string(document)), ("reporting", .string(audit.reporting.rawValue)),
            ("passed", .bool(audit.passed)), ("requests", .int(requests)), ("matched", .int(audit.matched)), ("tolerance", .number(audit.tolerance)),
            ("reachedStreamTime", audit.reachedStreamTime.map(JSON.seconds) ?? .null),
            ("beacons", .array(audit.rows.map { row in
                .object([
                    ("avail", .int(row.avail)), ("ad", .optional(row.ad)), ("event", .string(row.event)), ("url", .string(row.template)),
                    ("documentTime", .seconds(row.documentTime)), ("minimum", .int(row.minimum)), ("maximum", .optional(row.maximum)),
                    ("seen", .int(row.seen)), ("first", row.first.map { .string(ISO8601Time.text(milliseconds: $0)) } ?? .null),
                    ("lateness", .optional(row.lateness)), ("verdict", .string(row.verdict.rawValue)),
                ])
            })),
            ("findings", .array(audit.findings.map { finding in
                .object([("check", .string(finding.check)), ("passed", .bool(finding.passed)), ("warning", .bool(finding.warning)),
                         ("rule", .string(finding.rule)), ("detail", .string(finding.detail))])
            })),
            ("unmatched", .array(audit.unmatched.map { .object([("index", .int($0.index)), ("url", .string($0.url))]) })),
        ])
    }

    static func text(_ audit: TrackingDocumentAudit, requests: Int) -> String {
        var lines = ["audit against a tracking document (\(audit.reporting.rawValue) reporting): \(requests) requests, \(audit.matched) matched to its beacon URLs"]
        if let reached = audit.reachedStreamTime { lines.append("the capture reaches \(reached.millisecondText) s of the stream") }
        var table = [["verdict", "where", "event", "due", "expected", "seen", "late"]]
        for row in audit.rows where row.seen > 0 || row.minimum > 0 || row.verdict != .ok {
            table.append([row.verdict == .ok ? "ok" : row.verdict.rawValue.uppercased(), place(row), row.event, row.documentTime.millisecondText,
                          range(minimum: row.minimum, maximum: row.maximum), "\(row.seen)", row.lateness.map { String(format: "%+.3f", $0) } ?? "-"])
        }
        let widths = (0..<7).map { column in table.map { $0[column].count }.max() ?? 0 }
        lines += table.map { row in (0..<7).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") }
        lines += tail(findings: audit.findings, unmatched: audit.unmatched, passed: audit.passed)
        return lines.joined(separator: "\n")
    }
}
