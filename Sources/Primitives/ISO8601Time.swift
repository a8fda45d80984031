import Foundation

/// ISO 8601 times as milliseconds since 1970: `--now`, and the `startedDateTime` of a captured HAR entry.
public enum ISO8601Time {
    /// `2026-01-01T00:00:00Z`, with or without fractional seconds and with any UTC offset; nil for other text.
    public static func milliseconds(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        return nil
    }
}
