/// How much a finding matters to whoever gates on it: `error` fails `vplay lint` (exit 1), `warning` and `info` are
/// reported only. Ordered: `info < warning < error`.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case info, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
