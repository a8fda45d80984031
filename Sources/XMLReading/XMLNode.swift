/// A minimal immutable XML element tree built by `SafeXMLReader`: the readers of each format (VAST, DASH) turn it
/// into their typed model.
public struct XMLNode: Sendable, Hashable {
    /// The name as written, with any namespace prefix (`vast:Ad`).
    public var qualifiedName: String
    /// The local name (`Ad`): namespace prefixes are ignored when matching VAST elements.
    public var name: String
    /// Attributes keyed by their name as written.
    public var attributes: [String: String]
    /// Child elements in document order.
    public var children: [XMLNode]
    /// All character data and CDATA directly inside this element, concatenated, untrimmed.
    public var rawText: String
    /// Where the element (start tag to end tag) sits in the UTF-8 input, when known.
    public var sourceRange: Range<Int>?

    init(qualifiedName: String, attributes: [String: String]) {
        self.qualifiedName = qualifiedName
        self.name = XMLNode.localName(qualifiedName)
        self.attributes = attributes
        self.children = []
        self.rawText = ""
        self.sourceRange = nil
    }

    public static func localName(_ qualified: String) -> String {
        if let colon = qualified.lastIndex(of: ":") { return String(qualified[qualified.index(after: colon)...]) }
        return qualified
    }

    /// Trimmed text (whitespace and newlines around CDATA removed).
    public var text: String { rawText.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Trimmed text, or `nil` when empty.
    public var nonEmptyText: String? {
        let t = text
        return t.isEmpty ? nil : t
    }

    /// First child element with this local name (case-sensitive, like the schema).
    public func child(_ name: String) -> XMLNode? { children.first { $0.name == name } }

    /// All child elements with this local name.
    public func children(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }

    /// Attribute value by local name: exact match first, then case-insensitive (real tags write `creativetype`).
    public func attribute(_ name: String) -> String? {
        if let v = attributes[name] { return v.trimmingCharacters(in: .whitespacesAndNewlines) }
        let lower = name.lowercased()
        for (key, value) in attributes where XMLNode.localName(key).lowercased() == lower {
            return value.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// Attribute as a non-empty string.
    public func stringAttribute(_ name: String) -> String? {
        guard let v = attribute(name), !v.isEmpty else { return nil }
        return v
    }

    /// Attribute as an integer (`nil` when absent or not an integer; a decimal such as `"1280.0"` is truncated).
    public func intAttribute(_ name: String) -> Int? {
        guard let v = attribute(name), !v.isEmpty, v.count <= 18 else { return nil }
        if let i = Int(v) { return i }
        if let d = Double(v), d.isFinite, abs(d) < 1e15 { return Int(d) }
        return nil
    }

    /// Attribute as a boolean: `true`/`1` or `false`/`0` (case-insensitive); anything else is `nil`.
    public func boolAttribute(_ name: String) -> Bool? {
        guard let v = attribute(name)?.lowercased() else { return nil }
        switch v {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// The element serialized back to XML: attributes sorted by name, text first then children, whitespace-only
    /// text dropped, `&<>"` escaped.
    public var xmlString: String {
        var out = "<\(qualifiedName)"
        for key in attributes.keys.sorted() {
            out += " \(key)=\"\(XMLNode.escape(attributes[key] ?? "", quote: true))\""
        }
        let t = text
        if t.isEmpty && children.isEmpty { return out + "/>" }
        out += ">"
        out += XMLNode.escape(t, quote: false)
        for child in children { out += child.xmlString }
        return out + "</\(qualifiedName)>"
    }

    public static func escape(_ s: String, quote: Bool) -> String {
        var r = ""
        r.reserveCapacity(s.count)
        for ch in s {
            switch ch {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            case "\"" where quote: r += "&quot;"
            default: r.append(ch)
            }
        }
        return r
    }
}
