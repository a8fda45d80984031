import Foundation
import Primitives

/// Where a VMAP `AdBreak` goes on the content timeline (VMAP 1.0.1 §2.4, `timeOffset`): a clock time
/// (`hh:mm:ss[.mmm]`), a percentage of the content's duration (`n%`), the start (`start`: a pre-roll), the end (`end`:
/// a post-roll, after `contentComplete`), or the n-th ad opportunity of the content (`#n`).
public enum VMAPTimeOffset: Sendable, Hashable, CustomStringConvertible {
    case time(Duration)
    case percent(Double)
    case start
    case end
    case position(Int)

    /// Parses a `timeOffset` attribute as written; nil when it is none of the five forms.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch trimmed.lowercased() {
        case "start": self = .start
        case "end": self = .end
        default:
            if trimmed.hasPrefix("#") {
                let digits = trimmed.dropFirst()
                guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCIIDigit), let n = Int(digits), n >= 1 else { return nil }
                self = .position(n)
            } else if trimmed.hasSuffix("%") {
                guard case let .percent(value)? = TimeOffset(parsing: trimmed) else { return nil }
                self = .percent(value)
            } else {
                // VMAP writes clock times only (hh:mm:ss[.mmm]); bare seconds are not a VMAP offset.
                guard trimmed.contains(":"), let time = VASTTime.parseDuration(trimmed) else { return nil }
                self = .time(time)
            }
        }
    }

    /// Where the break falls in content of `duration`: `start` at 0, `end` at the end, a percentage of it exactly
    /// (as VAST's progress offsets), a clock time as written; nil for `#n`, which names an ad opportunity that only
    /// the content's own cue points place.
    public func resolve(against duration: Duration) -> Duration? {
        switch self {
        case .start: return .zero
        case .end: return duration
        case let .time(time): return time
        case let .percent(percent): return TimeOffset.percent(percent).resolve(against: duration)
        case .position: return nil
        }
    }

    /// pre 1, mid 2, post 3: `[BREAKPOSITION]` (VAST 4.1), from where the break falls.
    public func breakPosition(at time: Duration) -> Int {
        switch self {
        case .start: return 1
        case .end: return 3
        default: return time == .zero ? 1 : 2
        }
    }

    public var description: String {
        switch self {
        case let .time(time): return time.clockText
        case let .percent(percent): return "\(percent.formatted(.number.grouping(.never)))%"
        case .start: return "start"
        case .end: return "end"
        case let .position(n): return "#\(n)"
        }
    }
}
