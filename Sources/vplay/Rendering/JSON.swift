import Primitives
import Foundation

/// A JSON value whose objects keep their keys in the order written, so each JSON Lines record reads
/// `{"kind":…,"name":…,…}` the same way every time (the contract in docs/reference/json.md).
enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// Seconds and other measures: written with up to 6 decimals (microseconds), at least one.
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.text == rhs.text }

    /// Compact one-line text.
    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .number(value): out += Self.format(value)
        case let .string(value): Self.quote(value, into: &out)
        case let .array(values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.write(into: &out)
            }
            out += "]"
        case let .object(pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let micros = (value * 1_000_000).rounded()
        if micros == 0 { return "0.0" }
        var text = String(format: "%.6f", micros / 1_000_000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text += "0" }
        return text
    }

    private static func quote(_ string: String, into out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSON {
    /// A duration, playhead or offset: seconds to the microsecond (docs/reference/json.md, "Conventions": the one unit rule).
    static func seconds(_ duration: Duration) -> JSON { .number(duration.microsecondSeconds) }
    static func optional(_ value: Int?) -> JSON { value.map(JSON.int) ?? .null }
    static func optional(_ value: Double?) -> JSON { value.map(JSON.number) ?? .null }
    static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
}

