/// The ranges numeric options must fall in. Beyond them the values would overflow the millisecond `Duration`s and
/// 32-bit counts they become (`--beacon-timeout 1e300` used to stop vplay with a Swift trap, exit 132); inside them
/// every value a person means is allowed.
enum OptionRanges {
    /// The longest time any seconds option takes: a year, far beyond any ad, and far below `Int64` milliseconds.
    static let maxSeconds: Double = 365 * 24 * 3600
    /// `--speed`: from a thousandth of real time to a thousand times it.
    static let speeds: ClosedRange<Double> = 0.001...1000
    /// `fleet --rate`, beacons per second: one every 1,000 s to one every 100 ns.
    static let rates: ClosedRange<Double> = 0.001...10_000_000
    /// `--now`, milliseconds since 1970: up to the end of year 9999, as ISO 8601 can write it.
    static let nowMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999
    /// `--beacon-concurrency`: requests in flight (a fleet queues up to four times as many).
    static let maxBeaconConcurrency = 10_000
    /// `--pipeline`: requests one connection carries at once.
    static let maxPipeline = 64
    /// `--threads`: FFmpeg's own limit on decoder threads is far lower; this keeps the count a 32-bit number.
    static let maxThreads = 1024

    /// Whether `value` is a number of seconds from 0 (or above 0, when `positive`) to a year.
    static func isSeconds(_ value: Double, positive: Bool = false) -> Bool {
        value.isFinite && (positive ? value > 0 : value >= 0) && value <= maxSeconds
    }

    /// `value` seconds (checked by `isSeconds`) as a whole number of milliseconds.
    static func duration(seconds value: Double) -> Duration {
        .milliseconds(Int64((min(max(value, 0), maxSeconds) * 1000).rounded()))
    }

    /// `duration` in seconds as a person writes them: 8, 0.25 (to the millisecond, as `duration(seconds:)` keeps it).
    static func text(seconds duration: Duration) -> String {
        let milliseconds = Int64((duration / .milliseconds(1)).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }
}
