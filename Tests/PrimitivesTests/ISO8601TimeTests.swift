import Foundation
import Primitives
import Testing

/// Instants in vplay's JSON are ISO 8601 UTC with milliseconds, worked out without a formatter.
@Suite struct ISO8601TimeTests {
    @Test func text_isUTCWithMilliseconds_andReadsBack() {
        #expect(ISO8601Time.text(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Time.text(milliseconds: 1_767_225_600_123) == "2026-01-01T00:00:00.123Z")
        #expect(ISO8601Time.text(milliseconds: 951_782_400_007) == "2000-02-29T00:00:00.007Z", "a leap day")
        #expect(ISO8601Time.text(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        for ms: Int64 in [0, 1_767_225_600_123, 1_795_867_200_999, 4_102_444_799_999] {
            #expect(ISO8601Time.milliseconds(ISO8601Time.text(milliseconds: ms)) == ms)
        }
    }

    @Test func microsecondSeconds_roundsToTheMicrosecond() {
        #expect(Duration.nanoseconds(1_234_567).microsecondSeconds == 0.001235)
        #expect((Duration.seconds(5) + .nanoseconds(41_666_667)).microsecondSeconds == 5.041667)
    }

    /// The hand reader agrees with Foundation's `ISO8601DateFormatter` (what it replaced) on internet date-times:
    /// offsets, fractions, leap days, the ends of the range; and refuses what is not one.
    @Test func milliseconds_agreesWithFoundationsFormatter() {
        func foundation(_ text: String) -> Int64? {
            let formatter = ISO8601DateFormatter()
            for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
                formatter.formatOptions = options
                if let date = formatter.date(from: text) { return Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) }
            }
            return nil
        }
        let valid = ["2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00.123Z", "2026-11-22T12:34:56.789+09:00",
                     "2026-11-22T12:34:56-05:30", "2000-02-29T23:59:59.999Z", "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59Z",
                     "9999-12-31T23:59:59.999Z", "1600-03-01T00:00:00Z", "2024-03-10T02:30:00.000001Z", "2026-01-01T00:00:00.9996Z"]
        for text in valid {
            #expect(ISO8601Time.milliseconds(text) != nil, "\(text)")
            #expect(ISO8601Time.milliseconds(text) == foundation(text), "\(text)")
        }
        for text in ["", "2026-01-01", "2026-01-01T00:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z",
                     "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00Zjunk", "+999999999-01-01T00:00:00Z", "2026-01-01 00:00:00Z",
                     "2026-01-01T00:00:00+9:00", "٢٠٢٦-01-01T00:00:00Z"] {
            #expect(ISO8601Time.milliseconds(text) == nil, "\(text)")
        }
        // Before 1582 Foundation counts on the Julian calendar; vplay's dates are proleptic Gregorian both ways.
        #expect(ISO8601Time.milliseconds("0001-01-01T00:00:00Z").map { ISO8601Time.text(milliseconds: $0) } == "0001-01-01T00:00:00.000Z")
    }
}
