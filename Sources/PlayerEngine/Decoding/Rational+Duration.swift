import CFFmpeg

extension AVRational {
    /// `ticks × num / den` seconds as an exact `Duration` (to the attosecond, truncated toward zero).
    func duration(ofTicks ticks: Int64) -> Duration {
        let numerator = Int128(ticks) * Int128(num)
        let denominator = Int128(den == 0 ? 1 : den)
        let seconds = numerator / denominator
        let remainder = numerator % denominator
        let attoseconds = remainder * 1_000_000_000_000_000_000 / denominator
        return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(attoseconds))
    }

    /// The rational as a Double, nil when it is 0/0 or x/0 (FFmpeg's "unknown").
    var doubleValue: Double? {
        guard den != 0, num != 0 else { return nil }
        return Double(num) / Double(den)
    }
}

