import Primitives

/// Value formats VAST macros require (VAST 4.x macro list).
public enum MacroFormat {
    /// `HH:MM:SS.mmm` for `[ADPLAYHEAD]`, `[CONTENTPLAYHEAD]`, `[MEDIAPLAYHEAD]` (rounded to the millisecond).
    public static func playhead(_ duration: Duration) -> String { duration.clockText }

    /// `[TIMESTAMP]`: ISO 8601 with milliseconds and a UTC offset, `2026-11-22T10:15:07.127+00:00`.
    /// - Parameters:
    ///   - millisecondsSince1970: the wall time (injected: `--now` fixes it for reproducible runs).
    ///   - offsetMinutes: the simulated device's time zone offset from UTC.
    public static func timestamp(millisecondsSince1970: Int64, offsetMinutes: Int = 0) -> String {
        let local = millisecondsSince1970 + Int64(offsetMinutes) * 60_000
        let days = floorDiv(local, 86_400_000)
        let msOfDay = local - days * 86_400_000
        let (year, month, day) = ISO8601Time.civil(fromDays: days)
        let hour = msOfDay / 3_600_000, minute = msOfDay / 60_000 % 60, second = msOfDay / 1000 % 60
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = abs(offsetMinutes)
        if (0...9999).contains(year), offset / 60 < 100 {
            // Every field fits its width: written as digits straight into the string (a fleet makes one a beacon).
            return String(unsafeUninitializedCapacity: 29) { buffer in
                var at = 0
                func put(_ value: Int64, _ width: Int) {
                    var value = value
                    for index in stride(from: at + width - 1, through: at, by: -1) {
                        buffer[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                        value /= 10
                    }
                    at += width
                }
                func put(_ byte: Character) {
                    buffer[at] = byte.asciiValue!
                    at += 1
                }
                put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
                put(hour, 2); put(":"); put(minute, 2); put(":"); put(second, 2); put("."); put(msOfDay % 1000, 3)
                put(offsetMinutes < 0 ? "-" : "+"); put(Int64(offset / 60), 2); put(":"); put(Int64(offset % 60), 2)
                return at
            }
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(msOfDay % 1000, 3))"
            + "\(sign)\(pad(Int64(offset / 60), 2)):\(pad(Int64(offset % 60), 2))"
    }

    /// The UTC offset, in minutes, that an ISO 8601 date-time ends with: `Z` → 0, `+09:00`/`+0900`/`+09` → 540,
    /// `-05:30` → -330. nil when there is no time part or no offset (milliseconds since 1970, a bare local time).
    /// `--now 2026-01-01T09:00:00.5+09:00` keeps its `+09:00` in `[TIMESTAMP]` this way.
    public static func utcOffsetMinutes(ofISO8601 text: String) -> Int? {
        guard let timeStart = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return nil }
        let time = text[text.index(after: timeStart)...]
        if time.hasSuffix("Z") || time.hasSuffix("z") { return 0 }
        guard let signIndex = time.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = time[time.index(after: signIndex)...].filter { $0 != ":" }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
              hours <= 23, minutes <= 59 else { return nil }
        let total = hours * 60 + minutes
        return time[signIndex] == "-" ? -total : total
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        if value >= 0 {
            // Its digits written once, zeros before them (no digit string made, counted and joined to another).
            var length = 1, rest = value / 10
            while rest > 0 { length += 1; rest /= 10 }
            length = max(length, width)
            return String(unsafeUninitializedCapacity: length) { buffer in
                var value = value
                for index in stride(from: length - 1, through: 0, by: -1) {
                    buffer[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
                return length
            }
        }
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
