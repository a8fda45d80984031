import Networking
/// Replaces VAST macros in a tracking URL template: `[NAME]` (VAST 3/4) and `%%NAME%%` (accepted as the peer
/// vast-client-js does). Each value is percent-encoded per RFC 3986 (VAST 4.x §6.1: "URL-encode each value"); the
/// elements of a list value are encoded one by one and joined with a literal `,`.
///
/// A VAST 4.x macro with no value becomes `-1` ("unknown", VAST 4.x §6.1; the peer does the same for the macros it
/// supports). A name that is not a VAST macro is left exactly as written and reported, never blanked (VAST 4.x: "do
/// not blanket-replace unknown macros"). Names are case-sensitive, as in the spec and the peer.
public struct MacroExpander: Sendable {
    /// A template expanded: the URL and the macros it could not fill.
    public struct Expansion: Sendable, Equatable {
        /// The URL to request.
        public var url: String
        /// Names in the template that are not VAST macros and had no value (left in place, to be reported).
        public var unknownMacros: [String]
        /// VAST macros in the template that had no value (sent as `-1`).
        public var unfilledMacros: [String] = []
    }

    /// An expander; it holds no state.
    public init() {}

    /// Expands `template` with `values` (raw, not yet encoded).
    public func expand(_ template: String, values: [String: MacroValue]) -> Expansion {
        expand(template) { values[$0] }
    }

    /// Expands `template` with the facts of `context` (`MacroContext.value(named:)`).
    public func expand(_ template: String, context: MacroContext) -> Expansion {
        MacroTemplate(template).expand(context)
    }

    /// Expands `template`, asking `value` for each macro it names (raw, not yet encoded; nil: no value).
    public func expand(_ template: String, value: (String) -> MacroValue?) -> Expansion {
        MacroTemplate(template).expand { value($0.name) }
    }

    /// Expands `template` with configured raw values (list macros such as `PLAYERSIZE` written comma-separated,
    /// see `MacroValue.configured(_:for:)`).
    public func expand(_ template: String, values: [String: String]) -> Expansion {
        expand(template, values: values.reduce(into: [String: MacroValue]()) { $0[$1.key] = .configured($1.value, for: $1.key) })
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so
    /// `00:00:05.000` becomes `00%3A00%3A05.000` and a URL value cannot break out of its query parameter.
    public static func percentEncode(_ value: String) -> String {
        PercentEncoding.rfc3986(value)
    }
}
