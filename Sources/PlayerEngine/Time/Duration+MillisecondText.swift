/// Seconds with exactly three decimals (`"12.345"`, `"-0.042"`), rounded to the millisecond, for messages, without
/// Foundation's formatter. Any value is safe: one beyond ±10¹⁵ s (damaged media's timestamps, a mistyped
/// `playhead: 1e300` in an expectations file) is written as a plain number rather than overflowing the millisecond
/// count (a fuzzed MP4 once trapped the old formatter with a negative end).
public func millisecondText(seconds value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    let millis = Int64((value * 1000).rounded())
    let magnitude = millis.magnitude
    let fraction = String(magnitude % 1000)
    return (millis < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

extension Duration {
    /// `millisecondText(seconds:)` of this duration.
    var millisecondText: String { PlayerEngine.millisecondText(seconds: seconds) }
}
