import Findings
import XMLReading
/// Required elements and attributes: what a validator says about a tag (the IAB XSDs' `use="required"` and
/// `minOccurs`, the VAST 4.3 text's "required" marks, and the peer vast-client-js's `requiredValues` table). Each is a
/// `missingRecommended` warning, never an error: the tag still plays when it can. A requirement a VAST version
/// introduced is only checked on documents read as that version or later (see `DocumentBuilder.version`).
extension DocumentBuilder {
    /// The resources a Companion, NonLinear or Icon shows (VAST 4.3 §3.15).
    static let creativeResourceNames = ["StaticResource", "IFrameResource", "HTMLResource"]

    /// Warns when `node` lacks any of `names` or has it empty: `<MediaFile> lacks required attribute(s): type, width`.
    mutating func requireAttributes(_ names: [String], of node: XMLNode, _ path: String) {
        let missing = names.filter { node.stringAttribute($0) == nil }
        for (rule, names) in Self.byRule(missing, of: node.name) {
            warn(.missingRecommended, rule, "<\(node.name)> lacks required attribute(s): \(names.joined(separator: ", "))", path)
        }
    }

    /// Warns, for each of `names`, when `node` has no child element of that name: `<InLine> has no <Creatives>`.
    mutating func requireChildren(_ names: [String], of node: XMLNode, _ path: String) {
        for name in names where node.child(name) == nil {
            warn(.missingRecommended, .forMissingChild(name, of: node.name), "<\(node.name)> has no <\(name)>", path)
        }
    }

    /// Warns when `node` has none of `names` as a child: `<Companion> has none of <StaticResource>, … (nothing to
    /// show)`.
    mutating func requireOneOf(_ names: [String], of node: XMLNode, _ path: String, why: String) {
        guard !names.contains(where: { node.child($0) != nil }) else { return }
        let list = names.map { "<\($0)>" }.joined(separator: ", ")
        warn(.missingRecommended, .forMissingChild(names[0], of: node.name), "<\(node.name)> has none of \(list) (\(why))", path)
    }

    /// `missing` attributes of `<element>` grouped by the rule each breaks, in the order first named.
    static func byRule(_ missing: [String], of element: String) -> [(Rule, [String])] {
        var groups: [(Rule, [String])] = []
        for name in missing {
            let rule = Rule.forMissingAttribute(name, of: element)
            if let at = groups.firstIndex(where: { $0.0 == rule }) { groups[at].1.append(name) } else { groups.append((rule, [name])) }
        }
        return groups
    }

    /// `creativeType` of each `<StaticResource>` of a Companion, NonLinear or Icon (required by every XSD).
    mutating func requireStaticResourceTypes(of node: XMLNode, _ path: String) {
        for (index, resource) in node.children("StaticResource").enumerated() {
            requireAttributes(["creativeType"], of: resource, "\(path)/StaticResource[\(index + 1)]")
        }
    }
}
