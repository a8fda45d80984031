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
}
