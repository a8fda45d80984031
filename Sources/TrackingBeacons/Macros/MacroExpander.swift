import Primitives
/// Replaces VAST macros in a tracking URL template: `[NAME]` (VAST 3/4) and `%%NAME%%` (accepted as the peer
/// vast-client-js does). Each value is percent-encoded per RFC 3986 (VAST 4.x §6.1: "URL-encode each value"); the
/// elements of a list value are encoded one by one and joined with a literal `,`.
///
/// A VAST 4.x macro with no value becomes `-1` ("unknown", VAST 4.x §6.1; the peer does the same for the macros it
/// supports). A name that is not a VAST macro is left exactly as written and reported, never blanked (VAST 4.x: "do
/// not blanket-replace unknown macros"). Names are case-sensitive, as in the spec and the peer.
public struct MacroExpander: Sendable {
    public struct Expansion: Sendable, Equatable {
        /// The URL to request.
        public var url: String
        /// Names in the template that are not VAST macros and had no value (left in place, to be reported).
        public var unknownMacros: [String]
        /// VAST macros in the template that had no value (sent as `-1`).
        public var unfilledMacros: [String] = []
    }

    public init() {}

    /// Expands `template` with `values` (raw, not yet encoded).
    public func expand(_ template: String, values: [String: MacroValue]) -> Expansion {
        expand(template) { values[$0] }
    }

    /// Expands `template` with the facts of `context` (`MacroContext.value(named:)`).
    public func expand(_ template: String, context: MacroContext) -> Expansion {
        expand(template) { context.value(named: $0) }
    }

    /// Expands `template`, asking `value` for each macro it names (raw, not yet encoded; nil: no value).
    public func expand(_ template: String, value: (String) -> MacroValue?) -> Expansion {
        // Scanned as UTF-8 bytes: the delimiters are ASCII, so every index found is a character boundary of the
        // template, and no grapheme breaking is paid per beacon.
        let utf8 = template.utf8
        var output = ""
        output.reserveCapacity(utf8.count + 32)
        var unknown: [String] = []
        var unfilled: [String] = []
        var copied = utf8.startIndex  // the template before it is in `output`
        var cursor = utf8.startIndex
        while let start = utf8[cursor...].firstIndex(where: { $0 == 0x5B || $0 == 0x25 }) {  // [ or %
            let bracket = utf8[start] == 0x5B
            let nameStart = utf8.index(after: start)
            if !bracket {
                // `%%NAME%%`; a lone `%` is text.
                guard nameStart < utf8.endIndex, utf8[nameStart] == 0x25 else {
                    cursor = nameStart
                    continue
                }
            }
            let from = bracket ? nameStart : utf8.index(after: nameStart)
            guard let (nameEnd, after) = Self.close(of: utf8, from: from, bracket: bracket),
                  Self.isMacroName(template[from..<nameEnd]) else {
                cursor = from
                continue
            }
            output += template[copied..<start]
            let name = String(template[from..<nameEnd])
            if let found = value(name) {
                found.appendEncoded(to: &output)
            } else if VASTMacroNames.isKnown(name) {
                output += VASTMacroNames.unknownValue
                if !unfilled.contains(name) { unfilled.append(name) }
            } else {
                output += template[start..<after]
                if !unknown.contains(name) { unknown.append(name) }
            }
            copied = after
            cursor = after
        }
        output += template[copied...]
        return Expansion(url: output, unknownMacros: unknown, unfilledMacros: unfilled)
    }

    /// Where a macro's name ends and the text after its closing `]` (or `%%`) starts, searching from `from`.
    private static func close(of utf8: String.UTF8View, from: String.Index, bracket: Bool) -> (nameEnd: String.Index, after: String.Index)? {
        var index = from
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if bracket {
                if utf8[index] == 0x5D { return (index, next) }
            } else if utf8[index] == 0x25, next < utf8.endIndex, utf8[next] == 0x25 {
                return (index, utf8.index(after: next))
            }
            index = next
        }
        return nil
    }

    /// Expands `template` with configured raw values (list macros such as `PLAYERSIZE` written comma-separated,
    /// see `MacroValue.configured(_:for:)`).
    public func expand(_ template: String, values: [String: String]) -> Expansion {
        expand(template, values: values.reduce(into: [String: MacroValue]()) { $0[$1.key] = .configured($1.value, for: $1.key) })
    }

    /// Macro names are upper-case letters, digits and underscores (`ADPLAYHEAD`, `GDPRCONSENT`, `IFATYPE`).
    static func isMacroName(_ name: Substring) -> Bool {
        if name == "random" { return true }  // the one lower-case name: a legacy cache buster (`VASTMacroNames`)
        return !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so
    /// `00:00:05.000` becomes `00%3A00%3A05.000` and a URL value cannot break out of its query parameter.
    public static func percentEncode(_ value: String) -> String {
        PercentEncoding.rfc3986(value)
    }
}
