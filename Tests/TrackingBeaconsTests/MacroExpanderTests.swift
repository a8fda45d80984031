import Testing
@testable import TrackingBeacons

/// Macro expansion, table-driven: each macro vplay fills, encoded per RFC 3986.
@Suite struct MacroExpanderTests {
    let context = MacroContext(
        adPlayhead: .milliseconds(5000), assetURI: "https://cdn.example/ad 1.mp4", errorCode: 405, reason: 2,
        timestampMilliseconds: 1_767_225_600_127, timeZoneOffsetMinutes: -300, cacheBuster: "00012345",
        adServingId: "srv-1", universalAdId: "ad-id.org ABC123", adType: "video", podSequence: 2,
        playerState: ["muted"], extra: ["DEVICEUA": "vplay/0.1 (iPhone)", "APPBUNDLE": "com.example.app", "IFA": "abc", "LIMITADTRACKING": "0", "PLAYERSIZE": "390,844", "BREAKPOSITION": "4"])

    static let table: [(String, String)] = [
        ("[ADPLAYHEAD]", "00%3A00%3A05.000"),
        ("[CONTENTPLAYHEAD]", "00%3A00%3A05.000"),
        ("[MEDIAPLAYHEAD]", "00%3A00%3A05.000"),
        ("[ASSETURI]", "https%3A%2F%2Fcdn.example%2Fad%201.mp4"),
        ("[ERRORCODE]", "405"),
        ("[REASON]", "2"),
        ("[CACHEBUSTING]", "00012345"),
        // 2026-01-01T00:00:00.127Z shown in UTC-05:00.
        ("[TIMESTAMP]", "2025-12-31T19%3A00%3A00.127-05%3A00"),
        ("[ADSERVINGID]", "srv-1"),
        ("[UNIVERSALADID]", "ad-id.org%20ABC123"),
        ("[ADTYPE]", "video"),
        ("[PODSEQUENCE]", "2"),
        ("[PLAYERSTATE]", "muted"),
        ("[PLAYERSIZE]", "390%2C844"),
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

    @Test func expand_lowerCaseName_isNotAMacro() {
        let expansion = MacroExpander().expand("https://t/p?cb=[cachebusting]", values: context.values)
        #expect(expansion.url == "https://t/p?cb=[cachebusting]")
        #expect(expansion.unknownMacros.isEmpty)
    }

    @Test func expand_existingPercentEscapesAndBrackets_areKept() {
        let expansion = MacroExpander().expand("https://t/p?u=a%2Fb&x=[1,2]&y=%%&z=50%", values: context.values)
        #expect(expansion.url == "https://t/p?u=a%2Fb&x=[1,2]&y=%%&z=50%")
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
