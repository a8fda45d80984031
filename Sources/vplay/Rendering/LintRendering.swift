import AdSession
import Findings
import Foundation
import Primitives

/// `vplay lint`'s outputs: text for people, NDJSON (one finding a line, vastlint's field names and `tag`;
/// `schemas/lint-finding.schema.json`), JUnit (one test case per rule that ran, a tag at a time) and SARIF 2.1.0
/// (`SARIFReport`).
enum LintRendering {
    static func text(_ lints: [TagLint]) -> String {
        var lines: [String] = []
        for lint in lints {
            for item in lint.findings {
                let at = item.finding.path.map { " at \($0)" } ?? ""
                let line = item.place.map { ":\($0.line):\($0.column)" } ?? ""
                lines.append("\(lint.tag)\(line): \(item.severity.rawValue)[\(item.rule.id)]\(at): \(item.finding.message)")
            }
        }
        let counts = Severity.allCases.reversed().map { severity in
            let count = lints.reduce(0) { $0 + $1.findings.filter { $0.severity == severity }.count }
            return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
        }
        let failed = lints.filter(\.failed).count
        lines.append("\(lints.count) tag\(lints.count == 1 ? "" : "s") linted: \(counts.joined(separator: ", ")); "
                     + (failed == 0 ? "no tag fails" : "\(failed) tag\(failed == 1 ? "" : "s") fail\(failed == 1 ? "s" : "")"))
        return lines.joined(separator: "\n")
    }

    static func ndjson(_ lints: [TagLint]) -> String {
        lints.flatMap { lint in
            lint.findings.map { item in
                JSON.object([("id", .string(item.rule.id)), ("severity", .string(item.severity.rawValue)), ("message", .string(item.finding.message)),
                             ("path", JSON.optional(item.finding.path)), ("spec_ref", .string(item.rule.specReference)), ("tag", .string(lint.tag)),
                             ("line", JSON.optional(item.place?.line)), ("column", JSON.optional(item.place?.column))]).text
            }
        }.map { $0 + "\n" }.joined()
    }

    /// One test case per rule that ran (every rule the policy leaves on), for each tag: failed when the rule found an
    /// error there; its warnings and notes listed in the case's output.
    static func junit(_ lints: [TagLint], rules: [Rule], started: Date, seconds: Double, hostname: String) -> String {
        var cases: [JUnitReport.Case] = []
        for lint in lints {
            for rule in rules {
                let found = lint.findings.filter { $0.rule.id == rule.id }
                let errors = found.filter { $0.severity == .error }
                let name = lints.count == 1 ? rule.id : "\(rule.id) \(lint.tag)"
                let details = found.map { "\($0.severity.rawValue): \($0.finding)" }.joined(separator: "\n")
                cases.append(JUnitReport.Case(name: name, outcome: errors.isEmpty ? .passed
                    : .failed(message: errors.first!.finding.message, details: details)))
            }
        }
        let subject = lints.count == 1 ? lints[0].tag : "\(lints.count) tags"
        return JUnitReport.xml(JUnitReport.Suite(name: "vplay lint \(subject)", command: "lint", subject: subject, cases: cases,
                                                 started: started, hostname: hostname, seconds: seconds))
    }
}
