import Networking
import Foundation
import Testing
import VAST
@testable import TrackingBeacons

/// Macro expansion, table-driven: each macro vplay fills, encoded per RFC 3986.
@Suite struct MacroExpanderTests {
    let context = MacroContext(
        adPlayhead: .milliseconds(5000), assetURI: "https://cdn.example/ad 1.mp4", errorCode: 405, reason: 2,
        timestampMilliseconds: 1_767_225_600_127, timeZoneOffsetMinutes: -300, cacheBuster: "00012345",
        adServingId: "srv-1", universalAdIds: ["ad-id.org CNPA0484000H", "clearcast.co.uk AB/CD,1"], adType: "video", podSequence: 2,
        adCount: 1, transactionID: "123e4567-e89b-42d3-a456-426655440000", playerState: ["muted", "fullscreen"],
        extra: ["DEVICEUA": "vplay/0.1 (iPhone)", "APPBUNDLE": "com.example.app", "IFA": "abc", "LIMITADTRACKING": "0", "PLAYERSIZE": "390,844",
                "BREAKPOSITION": "4", "PLAYERCAPABILITIES": "skip,mute", "REGULATIONS": "gdpr"],
        adCategories: ["IAB1-1", "IAB 2,x"])

    static let table: [(String, String)] = [
        ("[ADPLAYHEAD]", "00%3A00%3A05.000"),
        ("[CONTENTPLAYHEAD]", "00%3A00%3A05.000"),
        ("[MEDIAPLAYHEAD]", "00%3A00%3A05.000"),
        ("[ASSETURI]", "https%3A%2F%2Fcdn.example%2Fad%201.mp4"),
        ("[ERRORCODE]", "405"),
        ("[REASON]", "2"),
        ("[CACHEBUSTING]", "00012345"),
        // Legacy cache busters (not VAST 4.x, ubiquitous in older tags; the peer expands them): the same value.
        ("[RANDOM]", "00012345"),
        // The ad's <Category> codes, a list: each encoded, joined with a literal ','.
        ("[ADCATEGORIES]", "IAB1-1,IAB%202%2Cx"),
        ("[random]", "00012345"),
        ("%%RANDOM%%", "00012345"),
        // 2026-01-01T00:00:00.127Z shown in UTC-05:00.
        ("[TIMESTAMP]", "2025-12-31T19%3A00%3A00.127-05%3A00"),
        ("[ADSERVINGID]", "srv-1"),
        // Arrays: each element encoded, joined with a literal ',' (VAST 4.x §6.1); the ',' inside `AB/CD,1` is data.
        ("[UNIVERSALADID]", "ad-id.org%20CNPA0484000H,clearcast.co.uk%20AB%2FCD%2C1"),
        ("[ADTYPE]", "video"),
        ("[PODSEQUENCE]", "2"),
        ("[ADCOUNT]", "1"),
        ("[TRANSACTIONID]", "123e4567-e89b-42d3-a456-426655440000"),
        ("[PLAYERSTATE]", "muted,fullscreen"),
        ("[PLAYERSIZE]", "390,844"),
        ("[PLAYERCAPABILITIES]", "skip,mute"),
        ("[REGULATIONS]", "gdpr"),
        ("[DEVICEUA]", "vplay%2F0.1%20%28iPhone%29"),
        ("[APPBUNDLE]", "com.example.app"),
        ("[IFA]", "abc"),
        ("[LIMITADTRACKING]", "0"),
        ("[BREAKPOSITION]", "4"),
        ("%%ADPLAYHEAD%%", "00%3A00%3A05.000"),
    ]

    @Test(arguments: table)
    func expand_eachMacro_givesItsEncodedValue(_ row: (String, String)) {
        let expansion = MacroExpander().expand("https://t.example/p?v=\(row.0)", values: context.values)
        #expect(expansion.url == "https://t.example/p?v=\(row.1)")
        #expect(expansion.unknownMacros.isEmpty)
    }

    @Test func expand_unknownMacro_isLeftAsWrittenAndReportedOnce() {
        let expansion = MacroExpander().expand("https://t/p?a=[NOTAMACRO]&b=[NOTAMACRO]&c=[CACHEBUSTING]", values: context.values)
        #expect(expansion.url == "https://t/p?a=[NOTAMACRO]&b=[NOTAMACRO]&c=00012345")
        #expect(expansion.unknownMacros == ["NOTAMACRO"])
    }

    @Test func expand_vastMacroWithoutAValue_isMinusOne_andNotReportedAsUnknown() {
        let bare = MacroContext(timestampMilliseconds: 0, cacheBuster: "00000001")
        let template = "https://t/p?pos=[ADPLAYHEAD]&g=[GDPRCONSENT]&ua=%%CLIENTUA%%&a=[ASSETURI]&u=[UNIVERSALADID]&n=[ADCOUNT]&gpp=[GPP_STRING]&x=[FOO]"
        let expansion = MacroExpander().expand(template, values: bare.values)
        #expect(expansion.url == "https://t/p?pos=-1&g=-1&ua=-1&a=-1&u=-1&n=-1&gpp=-1&x=[FOO]")
        #expect(expansion.unknownMacros == ["FOO"])
        #expect(expansion.unfilledMacros == ["ADPLAYHEAD", "GDPRCONSENT", "CLIENTUA", "ASSETURI", "UNIVERSALADID", "ADCOUNT", "GPP_STRING"])
    }

    @Test func expand_emptyPlayerState_isEmpty_notUnknown() {
        let expansion = MacroExpander().expand("https://t/p?st=[PLAYERSTATE]", values: MacroContext(timestampMilliseconds: 0, cacheBuster: "1").values)
        #expect(expansion.url == "https://t/p?st=")
    }

    @Test func expand_configuredListValue_isSplitOnCommasAndEachElementEncoded() {
        let expansion = MacroExpander().expand("https://t/p?s=[PLAYERSIZE]&m=[MEDIAMIME]&ua=[DEVICEUA]",
                                               values: ["PLAYERSIZE": "640,360", "MEDIAMIME": "video/mp4,application/x-mpegURL", "DEVICEUA": "a,b"])
        #expect(expansion.url == "https://t/p?s=640,360&m=video%2Fmp4,application%2Fx-mpegURL&ua=a%2Cb", "DEVICEUA is one text: its comma is data")
    }

    /// A list macro configured empty (vplay's `APIFRAMEWORKS` and `VERIFICATIONVENDORS`: it supports none) is an
    /// empty list, a known answer, not `-1`; a configured list of codes (`VASTVERSIONS`) is joined with a literal `,`.
    @Test func expand_emptyConfiguredList_isEmpty_notUnknown() {
        let expansion = MacroExpander().expand("https://t/p?api=[APIFRAMEWORKS]&vend=[VERIFICATIONVENDORS]&vv=[VASTVERSIONS]&b=[BLOCKEDADCATEGORIES]",
                                               values: ["APIFRAMEWORKS": "", "VERIFICATIONVENDORS": "", "VASTVERSIONS": "2,3,11"])
        #expect(expansion.url == "https://t/p?api=&vend=&vv=2,3,11&b=-1")
        #expect(expansion.unfilledMacros == ["BLOCKEDADCATEGORIES"])
    }

    /// The resolver fills `[BLOCKEDADCATEGORIES]` with `PercentEncoding.list`: the same encoding as a list value here.
    @Test func percentEncodingList_isTheListMacroEncoding() {
        let items = ["IAB1-1", "IAB 7/x,y", ""]
        #expect(PercentEncoding.list(items) == MacroValue.list(items).encoded)
        #expect(PercentEncoding.list(items) == "IAB1-1,IAB%207%2Fx%2Cy,")
    }

    @Test func expand_lowerCaseName_isNotAMacro() {
        let expansion = MacroExpander().expand("https://t/p?cb=[cachebusting]", values: context.values)
        #expect(expansion.url == "https://t/p?cb=[cachebusting]")
        #expect(expansion.unknownMacros.isEmpty)
    }

    @Test func expand_existingPercentEscapesAndBrackets_areKept() {
        let expansion = MacroExpander().expand("https://t/p?u=a%2Fb&x=[1,2]&y=%%&z=50%", values: context.values)
        #expect(expansion.url == "https://t/p?u=a%2Fb&x=[1,2]&y=%%&z=50%")
    }

    /// The template is scanned as bytes: text that is not ASCII around, between and inside brackets is kept as it is,
    /// and macros next to it are found.
    @Test func expand_textThatIsNotASCII_isKeptAroundTheMacros() {
        let expansion = MacroExpander().expand("https://t/é?a=[CACHEBUSTING]ü&b=%%CACHEBUSTING%%&c=[é]&d=[NAME\u{301}]&e=%%ÜBER%%&f=[",
                                                values: ["CACHEBUSTING": "12345678"])
        #expect(expansion.url == "https://t/é?a=12345678ü&b=12345678&c=[é]&d=[NAME\u{301}]&e=%%ÜBER%%&f=[")
        #expect(expansion.unknownMacros.isEmpty && expansion.unfilledMacros.isEmpty)
    }

    @Test func expand_valueWithQueryCharacters_cannotBreakOutOfItsParameter() {
        let expansion = MacroExpander().expand("https://t/p?ua=[DEVICEUA]&n=1", values: ["DEVICEUA": "x&evil=1#frag"])
        #expect(expansion.url == "https://t/p?ua=x%26evil%3D1%23frag&n=1")
    }

    @Test func playhead_formatsHoursMinutesSecondsMilliseconds() {
        #expect(MacroFormat.playhead(.zero) == "00:00:00.000")
        #expect(MacroFormat.playhead(.milliseconds(11355)) == "00:00:11.355")
        #expect(MacroFormat.playhead(.seconds(3723) + .milliseconds(4)) == "01:02:03.004")
        #expect(MacroFormat.playhead(.nanoseconds(2_499_600_000)) == "00:00:02.500", "rounded to the millisecond")
    }

    @Test func timestamp_utcAndLeapDay() {
        #expect(MacroFormat.timestamp(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000+00:00")
        // 2024-02-29T12:34:56.789Z
        #expect(MacroFormat.timestamp(millisecondsSince1970: 1_709_210_096_789) == "2024-02-29T12:34:56.789+00:00")
        #expect(MacroFormat.timestamp(millisecondsSince1970: 1_709_210_096_789, offsetMinutes: 330) == "2024-02-29T18:04:56.789+05:30")
    }

    /// The digits written in place agree with Foundation's calendar, across years, offsets either side of UTC and a
    /// negative time; `pad` with the digits joined to their zeros.
    @Test func timestamp_agreesWithFoundationsCalendar_andPadWithZerosJoinedToDigits() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let ms = Int64.random(in: -5_000_000_000_000...200_000_000_000_000, using: &generator)
            let offset = Int.random(in: -720...840, using: &generator)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(secondsFromGMT: offset * 60))
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let milliseconds = ((ms % 1000) + 1000) % 1000
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d%@%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                                  parts.minute!, parts.second!, Int(milliseconds), offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
            #expect(MacroFormat.timestamp(millisecondsSince1970: ms, offsetMinutes: offset) == expected, "\(ms) \(offset)")
        }
        for value: Int64 in [0, 7, 42, 999, 1_000, 12_345_678, 99_999_999, 123_456_789, Int64.max] {
            for width in [1, 2, 3, 4, 8] {
                let digits = String(value)
                #expect(MacroFormat.pad(value, width) == String(repeating: "0", count: max(0, width - digits.count)) + digits)
            }
        }
    }

    @Test func timestampOffset_isReadFromTheISO8601TextNowIsWrittenWith() {
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "2026-01-01T09:00:00.5+09:00") == 540)
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "2026-01-01T09:00:00-0530") == -330)
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "2026-01-01T09:00:00+02") == 120)
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "2026-01-01T00:00:00Z") == 0)
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "1767225600000") == nil)
        #expect(MacroFormat.utcOffsetMinutes(ofISO8601: "2026-01-01T09:00:00") == nil)
        // 2026-01-01T09:00:00.5+09:00 is 00:00:00.500Z; shown with its own offset.
        #expect(MacroFormat.timestamp(millisecondsSince1970: 1_767_225_600_500, offsetMinutes: 540) == "2026-01-01T09:00:00.500+09:00")
    }

    @Test func transactionID_isAVersion4UUIDReproducibleFromItsSeed() {
        let id = TransactionID.make(seed: 1)
        #expect(id == TransactionID.make(seed: 1))
        #expect(id != TransactionID.make(seed: 2))
        #expect(id.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(id)")
        // The values a seed has always given (the session ids of earlier reports), leading zeros kept.
        #expect(id == "190f657d-6472-4635-a393-3b0a161320e0")
        #expect(TransactionID.make(seed: .max) == "dac9eac4-ba77-4065-acf4-0048faa24298")
    }

    @Test func cacheBuster_isEightDigitsAndReproducibleFromItsSeed() {
        var first = CacheBuster(seed: 42)
        var second = CacheBuster(seed: 42)
        var other = CacheBuster(seed: 43)
        let a = (0..<100).map { _ in first.next() }
        #expect(a == (0..<100).map { _ in second.next() })
        #expect(a != (0..<100).map { _ in other.next() })
        #expect(a.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isNumber) })
        #expect(Set(a).count == 100)
    }
}

/// `MacroContext.value(named:)` (what the expander asks, one macro at a time) gives exactly what the whole table
/// `values` gives, for every VAST macro name, the legacy cache busters and configured extras, with facts set and unset.
@Suite struct MacroContextLookupTests {
    @Test(arguments: [false, true])
    func valueNamed_isTheTablesValue_forEveryName(_ full: Bool) {
        var context = MacroContext(timestampMilliseconds: 1_767_225_600_123, timeZoneOffsetMinutes: 60, cacheBuster: "12345678",
                                   extra: ["DEVICEUA": "vplay/1 (iPhone)", "PLAYERSIZE": "390,844", "CONTENTPLAYHEAD": "00:01:00.000",
                                           "ASSETURI": "configured", "CUSTOM_THING": "x"])
        if full {
            context.adPlayhead = .milliseconds(5_250)
            context.assetURI = "https://cdn.example/clip.mp4"
            context.errorCode = 405
            context.reason = 2
            context.adServingId = "serving-1"
            context.universalAdIds = ["ad-id.org 123", "other 9"]
            context.adType = "video"
            context.podSequence = 2
            context.adCount = 3
            context.transactionID = "uuid-1"
            context.playerState = ["muted"]
            context.adCategories = ["IAB1", "IAB2"]
        }
        let table = context.values
        for name in VASTMacroNames.names.union(VASTMacroNames.legacyCacheBusters).union(["CUSTOM_THING", "NOT_SET"]) {
            #expect(context.value(named: name) == table[name], "\(name)")
        }
        let template = "https://t.example/p?pos=[ADPLAYHEAD]&c=[CONTENTPLAYHEAD]&cb=[CACHEBUSTING]&r=%%RANDOM%%&s=[PLAYERSIZE]&e=[ERRORCODE]&x=[CUSTOM_THING]&u=[UNKNOWN_ONE]"
        #expect(MacroExpander().expand(template, context: context) == MacroExpander().expand(template, values: table))
    }
}

/// A template scanned once (`MacroTemplate`, what a tracking plan keeps for each URL) expands to what scanning it
/// afresh for each moment gives, moment after moment.
@Suite struct MacroTemplateTests {
    @Test func scannedOnce_expandsAsAFreshScan_forEachMoment() {
        let text = "https://t.example/p?pos=[ADPLAYHEAD]&cb=[CACHEBUSTING]&r=%%RANDOM%%&pct=100%&b=[not a macro]&x=[CUSTOM_THING]&u=[UNKNOWN_ONE]&e=[ERRORCODE]&cb2=[CACHEBUSTING]"
        let template = MacroTemplate(text)
        #expect(template.text == text)
        #expect(template.names == ["ADPLAYHEAD", "CACHEBUSTING", "RANDOM", "CUSTOM_THING", "UNKNOWN_ONE", "ERRORCODE", "CACHEBUSTING"])
        for (index, playhead) in [nil, Duration.milliseconds(2_500), .seconds(10)].enumerated() {
            var context = MacroContext(timestampMilliseconds: 1_767_225_600_000 + Int64(index), cacheBuster: "0000000\(index)",
                                       extra: ["CUSTOM_THING": "a b"])
            context.adPlayhead = playhead
            let expansion = template.expand(context)
            #expect(expansion == MacroExpander().expand(text, context: context))
            #expect(expansion.url.contains("cb=0000000\(index)&") && expansion.url.hasSuffix("cb2=0000000\(index)"))
            #expect(expansion.unknownMacros == ["UNKNOWN_ONE"])
            #expect(expansion.unfilledMacros == (playhead == nil ? ["ADPLAYHEAD", "ERRORCODE"] : ["ERRORCODE"]))
        }
    }

    @Test func aTemplateWithoutMacros_isItsText() {
        for text in ["https://t.example/i", "https://t.example/i?a=[b]&c=%d", ""] {
            #expect(MacroTemplate(text).expand { _ in "x" } == MacroExpander.Expansion(url: text, unknownMacros: []))
            #expect(MacroTemplate(text).names.isEmpty)
        }
    }
}
