/// Parsing and formatting of VAST clock values (`HH:MM:SS`, `HH:MM:SS.mmm`) into exact `Duration`s.
///
/// All results are whole milliseconds: VAST's finest unit is `.mmm`, so keeping milliseconds makes every value
/// exact and comparable (no binary floating point seconds anywhere).
public enum VASTTime {
    /// The largest accepted hour value. A guard against arithmetic overflow on hostile input; 99 999 h is ~11 years,
    /// far beyond any ad.
    public static let maximumHours = 99_999

    /// Parses `HH:MM:SS`, `HH:MM:SS.mmm` (any number of fraction digits; digits past milliseconds are truncated),
    /// also `MM:SS`, and — like vast-client-js, but exactly — bare seconds such as `15` or `15.9` (15.9 s, not 15 s).
    ///
    /// Returns `nil` for anything else, for negative values and for minutes or seconds fields above 59 in the
    /// colon form.
    public static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 32 else { return nil }
        let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count <= 3 else { return nil }
        guard let last = fields.last, let secondsMs = parseSecondsField(last, capSixty: fields.count > 1) else {
            return nil
        }
        var wholeFields: [Int] = []
        for field in fields.dropLast() {
            guard !field.isEmpty, field.count <= 6, field.allSatisfy(\.isASCIIDigit), let v = Int(field) else {
                return nil
            }
            wholeFields.append(v)
        }
        var hours = 0
        var minutes = 0
        switch wholeFields.count {
        case 2:
            hours = wholeFields[0]
            minutes = wholeFields[1]
        case 1:
            minutes = wholeFields[0]
        default:
            break
        }
        guard hours <= maximumHours else { return nil }
        if fields.count > 1, wholeFields.count == 2, minutes > 59 { return nil }
        let total = Int64(hours) * 3_600_000 + Int64(minutes) * 60_000 + secondsMs
        return .milliseconds(total)
    }

    /// Parses a seconds field (`SS`, `SS.mmm`, or bare seconds) into milliseconds.
    private static func parseSecondsField(_ field: Substring, capSixty: Bool) -> Int64? {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 9,
              whole.allSatisfy(\.isASCIIDigit), let seconds = Int64(whole) else { return nil }
        if capSixty && seconds > 59 { return nil }
        var ms: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 12, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            let padded = String(fraction.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
            ms = Int64(padded) ?? 0
        }
        return seconds * 1000 + ms
    }

}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}

