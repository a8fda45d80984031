import Primitives
import Foundation

/// A point in an ad given either as a time (`HH:MM:SS[.mmm]`, or bare seconds) or as a percentage of its duration
/// (`n%`). Used by `skipoffset` and `progress@offset`.
public enum TimeOffset: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// An absolute time from the start of the ad (milliseconds precision).
    case time(Duration)
    /// A percentage of the ad's duration, 0...100 (`12.5` means 12.5 %).
    case percent(Double)

    /// Parses `HH:MM:SS`, `HH:MM:SS.mmm`, bare seconds (`15.9`), or `n%` with 0 ≤ n ≤ 100 (fractions allowed).
    /// A percent is never read as seconds (the peer vast-client-js does that for progress offsets).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasSuffix("%") {
            let number = trimmed.dropLast().trimmingCharacters(in: .whitespaces)
            guard !number.isEmpty, number.count <= 16,
                  number.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
                  let value = Double(number), value.isFinite, value >= 0, value <= 100 else { return nil }
            self = .percent(value)
        } else if let duration = VASTTime.parseDuration(trimmed) {
            self = .time(duration)
        } else {
            return nil
        }
    }

    /// The offset as a time within an ad of the given duration, exactly: a percentage (read to a millionth of a
    /// percent, more than any tag writes) is applied in `Duration` arithmetic, to the attosecond, so 25 % is the
    /// first quartile's instant to the attosecond and 12.5 % of 10.0433667 s is 1.2554208375 s, not a rounded ms.
    public func resolve(against duration: Duration) -> Duration {
        switch self {
        case .time(let time):
            return time
        case .percent(let percent):
            let millionths = Int64((percent * 1_000_000).rounded())
            return duration * millionths / 100_000_000
        }
    }

    public var description: String {
        switch self {
        case .time(let d): return d.clockText
        case .percent(let p):
            return p == p.rounded() ? "\(Int(p))%" : "\(p)%"
        }
    }

    private enum CodingKeys: String, CodingKey { case milliseconds, percent }

    /// Encodes as `{"milliseconds": 2500}` or `{"percent": 12.5}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .time(let d): try c.encode(d.wholeMilliseconds, forKey: .milliseconds)
        case .percent(let p): try c.encode(p, forKey: .percent)
        }
    }
}
