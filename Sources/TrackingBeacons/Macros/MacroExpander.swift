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
        var output = ""
        output.reserveCapacity(template.utf8.count + 32)
        var unknown: [String] = []
        var unfilled: [String] = []
        var rest = Substring(template)
        while let start = rest.firstIndex(where: { $0 == "[" || $0 == "%" }) {
            output += rest[..<start]
            let close: String = rest[start] == "[" ? "]" : "%%"
            let open = rest[start] == "[" ? 1 : 2
            if open == 2, !rest[start...].hasPrefix("%%") {
                output.append("%")
                rest = rest[rest.index(after: start)...]
                continue
            }
            let nameStart = rest.index(start, offsetBy: open)
            guard let nameEnd = rest[nameStart...].firstRange(of: close)?.lowerBound,
                  Self.isMacroName(rest[nameStart..<nameEnd]) else {
                output += rest[start..<nameStart]
                rest = rest[nameStart...]
                continue
            }
            let name = String(rest[nameStart..<nameEnd])
            let after = rest.index(nameEnd, offsetBy: close.count)
            if let found = value(name) {
                output += found.encoded
            } else if VASTMacroNames.isKnown(name) {
                output += VASTMacroNames.unknownValue
                if !unfilled.contains(name) { unfilled.append(name) }
            } else {
                output += rest[start..<after]
                if !unknown.contains(name) { unknown.append(name) }
            }
            rest = rest[after...]
        }
        output += rest
        return Expansion(url: output, unknownMacros: unknown, unfilledMacros: unfilled)
    }

    /// Expands `template` with configured raw values (list macros such as `PLAYERSIZE` written comma-separated,
    /// see `MacroValue.configured(_:for:)`).
    public func expand(_ template: String, values: [String: String]) -> Expansion {
        expand(template, values: values.reduce(into: [String: MacroValue]()) { $0[$1.key] = .configured($1.value, for: $1.key) })
    }

    /// Macro names are upper-case letters, digits and underscores (`ADPLAYHEAD`, `GDPRCONSENT`, `IFATYPE`).
    static func isMacroName(_ name: Substring) -> Bool {
        if name == "random" { return true }  // the one lower-case name: a legacy cache buster (`VASTMacroNames`)
        return !name.isEmpty && name.count <= 64 && name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so
    /// `00:00:05.000` becomes `00%3A00%3A05.000` and a URL value cannot break out of its query parameter.
    public static func percentEncode(_ value: String) -> String {
        PercentEncoding.rfc3986(value)
    }
}
