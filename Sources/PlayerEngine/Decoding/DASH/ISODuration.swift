import Foundation

/// ISO 8601 durations as DASH writes them (`xs:duration`).
public enum ISODuration {
    /// `PT10S`, `PT1M30.5S`, `P0DT0H0M10.000S` in seconds; nil for anything else (and for years or months, which have
    /// no fixed length).
    public static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        for character in rest {
            if character == "T" { inTime = true; continue }
            if character.isNumber || character == "." { number.append(character); continue }
            guard let value = Double(number) else { return nil }
            number = ""
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        // Hundreds of digits read as infinity: no duration.
        return number.isEmpty && total.isFinite ? total : nil
    }
}
