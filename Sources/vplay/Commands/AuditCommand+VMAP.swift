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
        if let timeline {
            do { try OutputFile.write(Self.svg(audit, title: "vplay audit: \(tag.vast)"), to: timeline, option: "--timeline") } catch { failures.append("\(error)") }
        }
        let failed = audit.breaks.filter { !$0.passed }.map { "break \($0.report.number)" }
        try CommandOutputs.exit(audit.passed ? 0 : 1, failures: failures, signalled: false,
                                reason: audit.passed ? nil : "audit checks failed in \(failed.joined(separator: ", "))")
    }

    /// A VMAP session's audit as one picture: each break the capture reached drawn as a tag's audit is (its ads'
    /// beacons on the time from its first, the quartiles' moments), one under the other, its heading saying whether
    /// its own breakStart and breakEnd held; a break not reached, or whose ads do not play, a line of its own.
    static func svg(_ audit: VMAPAudit, title: String) -> String {
        let width = 1090
        var y = 40
        var body: [String] = []
        for item in audit.breaks {
            let name = "break \(item.report.number) (\(item.report.offsetText))"
            guard item.reached, let breakAudit = item.audit else {
                let why = item.reached ? "reached; its ads do not play" : "not reached by the capture"
                body.append(##"<text class="break" x="10" y="\##(y + 14)" fill="#666">\##(JUnitReport.escape("\(name): \(why)"))</text>"##)
                y += 28
                continue
            }
            let edges = item.edgesHold ? "" : " — breakStart seen \(item.breakStarts ?? 0), breakEnd seen \(item.breakEnds ?? 0)"
            let color = item.passed ? Mark.ok.color : Mark.countWrong.color
            let heading = "\(name): \(item.requests.count) requests" + edges
            body.append(##"<svg class="break" x="0" y="\##(y)">"##)
            body.append(svg(breakAudit, title: heading).replacingOccurrences(of: "<svg xmlns=\"http://www.w3.org/2000/svg\" ", with: "<svg "))
            body.append("</svg>")
            body.append(##"<rect x="2" y="\##(y + 4)" width="4" height="\##(svgHeight(breakAudit) - 8)" fill="\##(color)"/>"##)
            y += svgHeight(breakAudit) + 10
        }
        let verdict = audit.passed ? ("every break holds", Mark.ok.color) : ("checks failed", Mark.countWrong.color)
        return ([##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(y + 10)" font-family="sans-serif" font-size="11">"##,
                 ##"<rect width="100%" height="100%" fill="white"/>"##,
                 ##"<text x="10" y="24" font-size="15" font-weight="bold">\##(JUnitReport.escape(title)) <tspan fill="\##(verdict.1)">\##(verdict.0)</tspan></text>"##]
                + body + ["</svg>"]).joined(separator: "\n") + "\n"
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
