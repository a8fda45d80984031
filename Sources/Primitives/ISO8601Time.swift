import Foundation

/// ISO 8601 times as milliseconds since 1970: `--now`, and the `startedDateTime` of a captured HAR entry.
public enum ISO8601Time {
    /// `2026-01-01T00:00:00Z`, with or without fractional seconds and with any UTC offset; nil for other text.
    public static func milliseconds(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) {
                // A year the formatter reads but no Int64 of milliseconds holds is no time, not a trap.
                return Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded())
            }
        }
        return nil
    }

    /// Milliseconds since 1970 as ISO 8601 UTC with milliseconds (`2026-11-22T12:00:00.123Z`): every instant in
    /// vplay's JSON outputs (a beacon's `sentAt`). Worked out from the civil calendar, so no formatter or locale
    /// can round it.
    public static func text(milliseconds: Int64) -> String {
        let (days, msOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let day = msOfDay < 0 ? days - 1 : days
        let ms = msOfDay < 0 ? msOfDay + 86_400_000 : msOfDay
        let (y, m, d) = civil(fromDays: day)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(ms / 3_600_000, 2)):\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (year, month, day): Howard Hinnant's `civil_from_days`.
    /// The one calendar vplay writes dates with (`[TIMESTAMP]` too).
    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
