import Networking
import VAST
/// A macro's raw (not yet encoded) value: one text, or a list for the VAST macros whose type is an array
/// (`UNIVERSALADID`, `PLAYERSIZE`, `PLAYERSTATE`, … — `VASTMacroNames.listValued`).
public enum MacroValue: Sendable, Equatable, ExpressibleByStringLiteral {
    /// A single value, percent-encoded whole.
    case text(String)
    /// Encoded element by element and joined with a literal `,` (VAST 4.x §6.1: "Join arrays with an unencoded `,`
    /// and no spaces"), so a comma inside an element (`AB/CD,1` → `AB%2FCD%2C1`) cannot be taken for a separator.
    case list([String])

    /// A single text value.
    public init(stringLiteral value: String) { self = .text(value) }

    /// A configured value (`--macro PLAYERSIZE=390,844`) for the macro `name`: split on `,` when that macro is a list.
    public static func configured(_ raw: String, for name: String) -> MacroValue {
        guard VASTMacroNames.listValued.contains(name) else { return .text(raw) }
        return .list(raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// The value as it goes into the URL.
    public var encoded: String {
        var output: [UInt8] = []
        appendEncoded(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `encoded`, appended to `output` (a URL being expanded) without building it first.
    public func appendEncoded(to output: inout [UInt8]) {
        switch self {
        case let .text(text):
            PercentEncoding.append(text, to: &output)
        case let .list(items):
            for (position, item) in items.enumerated() {
                if position > 0 { output.append(0x2C) }  // ,
                PercentEncoding.append(item, to: &output)
            }
        }
    }
}
