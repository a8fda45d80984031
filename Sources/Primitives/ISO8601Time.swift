import Foundation

/// ISO 8601 times as milliseconds since 1970: `--now`, and the `startedDateTime` of a captured HAR entry.
public enum ISO8601Time {
    /// `2026-01-01T00:00:00Z`, with or without fractional seconds and with any UTC offset (`+09:00`, `-0530`);
    /// nil for other text. RFC 3339's internet date-time, read by hand on the civil calendar: a formatter made for
    /// each time (ICU builds its locale data every time) was most of the cost of auditing a large HAR, one time an
    /// entry. Fractions are cut to the millisecond, as Foundation's formatter does; dates are proleptic Gregorian, as
    /// `text(milliseconds:)` writes them (Foundation switches to the Julian calendar before 1582).
    public static func milliseconds(_ text: String) -> Int64? {
        var bytes = text.utf8.makeIterator()
        var last: UInt8?
        func next() -> UInt8? { last = bytes.next(); return last }
        func digits(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let byte = next(), (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool { next() == byte }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")), let day = digits(2),
              let t = next(), t == UInt8(ascii: "T") || t == UInt8(ascii: "t"),
              let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")), let second = digits(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var fraction: Int64 = 0
        var zone = next()
        if zone == UInt8(ascii: ".") {
            var count = 0
            while let byte = next(), (48...57).contains(byte) {
                if count < 3 { fraction += Int64(byte - 48) * [100, 10, 1][count] }
                count += 1
            }
            guard count > 0 else { return nil }
            zone = last
        }
        var offset: Int64 = 0
        switch zone {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let hours = digits(2), hours <= 23 else { return nil }
            var separator = next()
            if separator == UInt8(ascii: ":") { separator = next() }
            guard let tens = separator, (48...53).contains(tens), let ones = next(), (48...57).contains(ones) else { return nil }
            offset = (hours * 60 + Int64(tens - 48) * 10 + Int64(ones - 48)) * 60_000 * (zone == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        guard next() == nil else { return nil }
        let seconds = days(fromCivil: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return seconds * 1000 + fraction - offset
    }

    /// Days in `month` of `year` (proleptic Gregorian).
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A proleptic Gregorian date to days since 1970-01-01: Howard Hinnant's `days_from_civil`.
    static func days(fromCivil year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
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
