import Primitives
import Testing
@testable import VAST

@Suite("Time values")
struct TimeTests {
    @Test(arguments: [("00:00:16", 16_000), ("00:00:10.500", 10_500), ("01:02:03.004", 3_723_004),
                      ("15.9", 15_900), ("15", 15_000), ("00:00:05.1", 5_100), ("00:00:05.12345", 5_123),
                      (" 00:00:30 ", 30_000), ("02:30", 150_000)] as [(String, Int64)])
    func duration_parsesExactlyToMilliseconds(_ text: String, _ ms: Int64) {
        #expect(VASTTime.parseDuration(text) == .milliseconds(ms))
    }

    @Test(arguments: ["", "abc", "00:61:00", "00:00:60", "-5", "1:2:3:4", "00:00:xx", "99999999999:00:00", "5%"])
    func invalidDuration_isNil(_ text: String) {
        #expect(VASTTime.parseDuration(text) == nil)
    }

    @Test func percentOffset_resolvesExactlyAndIsNeverReadAsSeconds() throws {
        let offset = try #require(TimeOffset(parsing: "12.5%"))
        #expect(offset == .percent(12.5))
        #expect(offset.resolve(against: .seconds(20)) == .milliseconds(2_500))
        #expect(TimeOffset(parsing: "25%")?.resolve(against: .seconds(120)) == .seconds(30))
    }

    @Test func timeOffset_parsesTimesAndBareSeconds() {
        #expect(TimeOffset(parsing: "00:00:05") == .time(.seconds(5)))
        #expect(TimeOffset(parsing: "00:00:05.250") == .time(.milliseconds(5_250)))
        #expect(TimeOffset(parsing: "15.9") == .time(.milliseconds(15_900)))
        #expect(TimeOffset(parsing: "101%") == nil)
        #expect(TimeOffset(parsing: "x%") == nil)
    }

    @Test func skipOffsetInPercent_resolvesAgainstTheDuration() throws {
        let xml = Fixture.inLine().replacingOccurrences(of: "<Linear>", with: "<Linear skipoffset=\"25%\">")
        let linear = try #require(try Fixture.parse(xml).ads.first?.inLine?.linearCreative?.linear)
        #expect(linear.skipTime == .seconds(5))
    }

    @Test func format_writesADPLAYHEADStyle() {
        #expect(Duration.milliseconds(11_355).clockText == "00:00:11.355")
        #expect(Duration.milliseconds(3_723_004).clockText == "01:02:03.004")
    }
}
