import Findings

/// `vplay rules`: the catalogue as a table or as JSON (`schemas/rules.schema.json`).
enum RuleRendering {
    static func text(_ catalogue: RuleCatalogue) -> String {
        let width = catalogue.rules.map(\.id.count).max() ?? 0
        var lines: [String] = []
        var family = ""
        // Grouped by family (VAST-2.0 … VAST-4.3, then vplay's), in catalogue order within each.
        let families = Array(Set(catalogue.rules.map(\.family))).sorted()
        let ordered = families.flatMap { family in catalogue.rules.filter { $0.family == family } }
        for rule in ordered {
            if rule.family != family {
                family = rule.family
                lines += (lines.isEmpty ? [] : [""]) + [family]
            }
            let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            lines.append("  \(id)  \(severity)  \(rule.summary) (\(rule.specReference))")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ catalogue: RuleCatalogue) -> JSON {
        .array(catalogue.rules.map { rule in
            .object([("id", .string(rule.id)), ("severity", .string(rule.severity.rawValue)), ("spec_ref", .string(rule.specReference)),
                     ("description", .string(rule.summary)), ("family", .string(rule.family)), ("vastlint", .bool(rule.isVastlintID))])
        })
    }
}
