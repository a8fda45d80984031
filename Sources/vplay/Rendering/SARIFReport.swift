import AdSession
import Findings
import Foundation
import Primitives

/// `vplay lint --format sarif`: SARIF 2.1.0 (OASIS), what GitHub code scanning and most CI dashboards read, valid
/// against the official schema (`schemas/sarif-schema-2.1.0.json`, checked by the tests). One run: the tool with
/// every rule the policy leaves on (its default level, spec reference and summary), then one result per finding at
/// its tag (`artifactLocation`: the file path relative to the working directory, or the URL; with the `region` of its
/// element's start tag when the finding is the file's own) and its element path (a logical location). SARIF's levels are `error`, `warning` and `note` (vplay's `info`).
enum SARIFReport {
    static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    static func json(_ lints: [TagLint], rules: [Rule]) -> JSON {
        let index = Dictionary(rules.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let driver = JSON.object([
            ("name", .string("vplay")), ("semanticVersion", .string(VPlayVersion.current)),
            ("informationUri", .string("https://github.com/vplay/vplay/blob/main/docs/reference/rules.md")),
            ("rules", .array(rules.map(descriptor))),
        ])
        var results: [JSON] = []
        for lint in lints {
            for item in lint.findings {
                var pairs: [(String, JSON)] = [("ruleId", .string(item.rule.id))]
                if let at = index[item.rule.id] { pairs.append(("ruleIndex", .int(at))) }
                pairs += [("level", .string(level(item.severity))), ("message", .object([("text", .string(item.finding.message))]))]
                var physical: [(String, JSON)] = [("artifactLocation", .object([("uri", .string(uri(lint.tag)))]))]
                if let place = item.place {
                    physical.append(("region", .object([("startLine", .int(place.line)), ("startColumn", .int(place.column))])))
                }
                var location: [(String, JSON)] = [("physicalLocation", .object(physical))]
                if let path = item.finding.path {
                    location.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(path)), ("kind", .string("element"))])])))
                }
                pairs.append(("locations", .array([.object(location)])))
                results.append(.object(pairs))
            }
        }
        return .object([("$schema", .string(schemaURI)), ("version", .string("2.1.0")),
                        ("runs", .array([.object([("tool", .object([("driver", driver)])), ("results", .array(results))])]))])
    }

    private static func descriptor(_ rule: Rule) -> JSON {
        .object([("id", .string(rule.id)), ("shortDescription", .object([("text", .string(rule.summary))])),
                 ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                 ("properties", .object([("specReference", .string(rule.specReference)), ("family", .string(rule.family))]))])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A URL as it is; a file path as a relative URI reference (percent-encoded), as SARIF's `uri` must be.
    static func uri(_ tag: String) -> String {
        if tag.hasPrefix("http://") || tag.hasPrefix("https://") { return tag }
        return tag.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? tag
    }
}
