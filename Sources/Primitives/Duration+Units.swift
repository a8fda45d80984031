/// The one set of `Duration` conversions vplay uses, each with its rounding stated.
///
/// One rounding rule for every time vplay shows or sends: to the nearest millisecond (VAST's finest unit), in JSON,
/// text, reports and the `HH:MM:SS.mmm` of `[ADPLAYHEAD]` alike. Truncating and rounding-up conversions exist only
/// for arithmetic on values already in whole milliseconds (parsed VAST times) or for drawing bounds.
extension Duration {
    /// Seconds as a Double, unrounded (arithmetic, not display).
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// Whole nanoseconds, truncated, saturating far beyond any time vplay uses.
    public var nanoseconds: Int64 {
        let (s, atto) = components
        let (product, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (s < 0 ? .min : .max) : product &+ atto / 1_000_000_000
    }

    /// Whole milliseconds, truncated toward zero.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }

    /// Whole milliseconds, rounded up.
    public var millisecondsRoundedUp: Int64 {
        let whole = wholeMilliseconds
        return Duration.milliseconds(whole) < self ? whole + 1 : whole
    }

    /// Seconds rounded to the nearest millisecond: the resolution of every time vplay reports.
    public var reportedSeconds: Double {
        let (seconds, attoseconds) = components
        let millis = (Double(attoseconds) / 1e15).rounded()
        return Double(seconds) + millis / 1000
    }

    /// Seconds rounded to the nearest microsecond: the resolution of every time in vplay's JSON outputs.
    public var microsecondSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + (Double(attoseconds) / 1e12).rounded() / 1e6
    }

    /// Seconds with exactly three decimals, rounded to the millisecond (`"12.345"`): `millisecondText(seconds:)`.
    public var millisecondText: String { Primitives.millisecondText(seconds: seconds) }

    /// Whole milliseconds, rounded to the nearest (the reporting rule).
    public var roundedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1000 &+ Int64((Double(attoseconds) / 1e15).rounded())
    }

    /// `HH:MM:SS.mmm`, rounded to the millisecond: the `[ADPLAYHEAD]` format, and how vplay writes a VAST time in
    /// messages. Negative values are clamped to zero.
    public var clockText: String {
        let ms = max(0, roundedMilliseconds)
        // Written as bytes: every beacon with `[ADPLAYHEAD]` formats one, and interpolated padding cost more than
        // the rest of its macro.
        let hours = ms / 3_600_000
        var hourDigits = 2
        while hourDigits < 19, hours >= Self.powersOfTen[hourDigits] { hourDigits += 1 }
        return String(unsafeUninitializedCapacity: hourDigits + 10) { bytes in
            func put(_ value: Int64, _ width: Int, at start: Int) {
                var value = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    bytes[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
            }
            put(hours, hourDigits, at: 0)
            bytes[hourDigits] = 0x3A
            put((ms / 60_000) % 60, 2, at: hourDigits + 1)
            bytes[hourDigits + 3] = 0x3A
            put((ms / 1000) % 60, 2, at: hourDigits + 4)
            bytes[hourDigits + 6] = 0x2E
            put(ms % 1000, 3, at: hourDigits + 7)
            return hourDigits + 10
        }
    }

    /// 10⁰ … 10¹⁸.
    private static let powersOfTen: [Int64] = (0...18).map { (0..<$0).reduce(Int64(1)) { product, _ in product * 10 } }
}

/// Seconds with exactly three decimals (`"12.345"`, `"-0.042"`), rounded to the millisecond, without Foundation's
/// formatter. Any value is safe: one beyond ±10¹⁵ s (damaged media's timestamps, a mistyped `playhead: 1e300` in an
/// expectations file) is written as a plain number rather than overflowing the millisecond count (a fuzzed MP4 once
/// trapped the old formatter with a negative end).
public func millisecondText(seconds value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    let millis = Int64((value * 1000).rounded())
    let magnitude = millis.magnitude
    let fraction = String(magnitude % 1000)
    return (millis < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

extension Clock where Duration == Swift.Duration {
    /// A function that says how much time has passed on this clock since it was made (works on `any Clock<Duration>`,
    /// whose instants cannot be kept by type).
    public func stopwatch() -> @Sendable () -> Swift.Duration {
        let origin = now
        return { origin.duration(to: self.now) }
    }
}

extension Duration {
    /// `seconds` to the nearest millisecond (the resolution vplay keeps times in).
    public static func milliseconds(roundingSeconds seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}
