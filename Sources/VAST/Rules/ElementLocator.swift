import Foundation
import XMLReading

/// Where a finding's element is in the document: the line and column of its start tag, found by walking the
/// finding's slash path (`VAST/Ad[1]/InLine/Creatives/Creative[2]`, `…/Tracking[@event=start]`) down the document's
/// tree as the hardened reader builds it. A step the tree does not have ends the walk at the element before it.
public enum ElementLocator {
    /// A place in a document: 1-based line, and 1-based column in UTF-16 code units (SARIF's default).
    public struct Place: Sendable, Hashable {
        public var line: Int
        public var column: Int
    }

    /// The start of `path`'s element in the VAST document `data`; nil when the document cannot be read or its root
    /// is not the path's first step.
    public static func locate(_ path: String, in data: Data) -> Place? {
        guard case let .success(output) = SafeXMLReader.read(data, limits: .default, document: "VAST") else { return nil }
        var steps = path.split(separator: "/").map(String.init)[...]
        guard let first = steps.popFirst(), first == output.root.name else { return nil }
        var node = output.root
        for step in steps {
            guard let next = child(of: node, step) else { break }
            node = next
        }
        return node.sourceRange.map { place(of: $0.lowerBound, in: output.source) }
    }

    /// `Name`, `Name[n]` (1-based among the children of that name) or `Name[@attribute=value]`.
    static func child(of node: XMLNode, _ step: String) -> XMLNode? {
        guard let open = step.firstIndex(of: "["), step.hasSuffix("]") else { return node.child(step) }
        let name = String(step[..<open]), inside = step[step.index(after: open)..<step.index(before: step.endIndex)]
        let named = node.children(name)
        if let n = Int(inside) { return named.indices.contains(n - 1) ? named[n - 1] : nil }
        guard inside.hasPrefix("@"), let equals = inside.firstIndex(of: "=") else { return named.first }
        let attribute = String(inside[inside.index(after: inside.startIndex)..<equals]), value = String(inside[inside.index(after: equals)...])
        return named.first { $0.attribute(attribute) == value }
    }

    static func place(of offset: Int, in source: [UInt8]) -> Place {
        let before = source[..<min(offset, source.count)]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = String(decoding: source[lineStart..<min(offset, source.count)], as: UTF8.self).utf16.count + 1
        return Place(line: line, column: column)
    }
}
