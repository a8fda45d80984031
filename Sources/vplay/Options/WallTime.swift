import ArgumentParser
import Foundation
import Primitives
import TrackingBeacons

/// `--now`: the wall time of the first frame, which `[TIMESTAMP]` is written from.
struct WallTime: Equatable, Sendable {
    /// Milliseconds since 1970, from 0 to the end of the year 9999 (`OptionRanges.nowMilliseconds`).
    var milliseconds: Int64
    /// The UTC offset the ISO 8601 text ended with (`+09:00` → 540), which `[TIMESTAMP]` keeps; nil for milliseconds
    /// and for a time without an offset.
    var utcOffsetMinutes: Int?

    init(milliseconds: Int64, utcOffsetMinutes: Int? = nil) {
        self.milliseconds = milliseconds
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses ISO 8601 (`2026-01-01T00:00:00Z`, fractional seconds allowed) or milliseconds since 1970.
    init(parsing text: String) throws {
        guard let milliseconds = Self.milliseconds(text), OptionRanges.nowMilliseconds.contains(milliseconds) else {
            throw ValidationError("--now must be ISO 8601 (2026-01-01T00:00:00Z) or milliseconds since 1970, up to the year 9999")
        }
        self.init(milliseconds: milliseconds, utcOffsetMinutes: MacroFormat.utcOffsetMinutes(ofISO8601: text))
    }

    private static func milliseconds(_ text: String) -> Int64? {
        Int64(text) ?? ISO8601Time.milliseconds(text)
    }
}
