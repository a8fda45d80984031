/// How the shaping faults that apply to one answer change its timing (all nil: none apply).
struct SinkShaping: Sendable, Equatable {
    /// Hold the head this long.
    var ttfb: Duration?
    /// Send the body at most this fast.
    var bytesPerSecond: Int?
    /// Pause this long when the body reaches this percent of the resource.
    var stall: Duration?
    var stallPercent = 0

    /// Whether the body must be paced by a ``SinkBodySender`` rather than written at once.
    var pacesBody: Bool { bytesPerSecond != nil || stall != nil }

    /// Adds the shaping fault `kind`; false (nothing changed) when one of its kind already applies.
    mutating func add(_ kind: SinkFault.Kind) -> Bool {
        switch kind {
        case .ttfb(let duration) where ttfb == nil: ttfb = duration
        case .rate(let rate) where bytesPerSecond == nil: bytesPerSecond = rate
        case .timedStall(let duration, let percent) where stall == nil:
            stall = duration
            stallPercent = percent
        default: return false
        }
        return true
    }
}
