import AdSession
import Foundation
import Testing

/// The readers of HLS interstitials (RFC 8216bis appendix D) and SVTA2053 signalling, as pure functions of their text.
@Suite struct InterstitialReadingTests {
    static let base = "https://s.example/live/index.m3u8"

    static func playlist(_ ranges: [String], pdt: [Int: String] = [0: "2026-01-01T00:00:00Z"]) -> Data {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4"]
        lines += ranges.map { "#EXT-X-DATERANGE:" + $0 }
        for segment in 0..<10 {
            if let date = pdt[segment] { lines.append("#EXT-X-PROGRAM-DATE-TIME:" + date) }
            lines += ["#EXTINF:4.000,", "s\(segment).ts"]
        }
        return Data((lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n").utf8)
    }

    @Test func dateRangesOfOneID_merge_datesPlaceThemByTheLastAnchor_andURIsResolveAgainstThePlaylist() throws {
        let data = Self.playlist([
            #"ID="b",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T01:00:06.500Z",X-ASSET-LIST="../lists/b.json""#,
            #"ID="b",END-DATE="2026-01-01T01:00:21.500Z",CUE="ONCE",X-RESTRICT="SKIP,JUMP""#,
            #"ID="a",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02Z",X-ASSET-URI="ads/a.m3u8",X-PLAYOUT-LIMIT=3.25"#,
            #"ID="ignored",CLASS="com.example.other",START-DATE="2026-01-01T00:00:01Z""#,
        ], pdt: [0: "2026-01-01T00:00:00Z", 5: "2026-01-01T01:00:00Z"])
        let stream = try HLSInterstitialReader.read(data, base: Self.base).get()
        #expect(stream.contentDuration == .seconds(40) && stream.boundaries.count == 11)
        #expect(stream.interstitials.map(\.id) == ["a", "b"])
        let a = stream.interstitials[0], b = stream.interstitials[1]
        #expect(a.contentTime == .seconds(2) && a.assetURI == "https://s.example/live/ads/a.m3u8" && a.playoutLimit == .milliseconds(3250))
        // Segment 5 starts at content 20 s and is dated 01:00:00: 01:00:06.5 is content 26.5 s.
        #expect(b.contentTime == .milliseconds(26_500) && b.assetList == "https://s.example/lists/b.json")
        #expect(b.duration == .seconds(15) && b.once && b.restrict == ["SKIP", "JUMP"])
    }

    @Test func preAndPostCues_placeAtTheEnds_whateverTheirDates() throws {
        let data = Self.playlist([
            #"ID="post",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00Z",CUE="POST",X-ASSET-URI="p.m3u8""#,
            #"ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2030-01-01T00:00:00Z",CUE="PRE,ONCE",X-ASSET-URI="q.m3u8""#,
        ])
        let stream = try HLSInterstitialReader.read(data, base: Self.base).get()
        #expect(stream.interstitials.map(\.id) == ["pre", "post"])
        #expect(stream.interstitials.map(\.contentTime) == [.zero, .seconds(40)])
    }

    @Test func signalling_withOrWithoutItsEnvelopesVersionAndType_slotsOrPods() throws {
        let slot = #"{"start":0,"duration":7.5,"skipOffset":5,"clickThrough":"https://c.example","tracking":[{"type":"progress","offset":3,"urls":["https://t.example/p"]}]}"#
        let bare = try AdCreativeSignaling.read(Data(#"{"payload":[\#(slot)]}"#.utf8)).get()
        #expect(bare.slots.count == 1 && bare.slots[0].duration == .milliseconds(7500) && bare.slots[0].skipOffset == .seconds(5))
        #expect(bare.slots[0].tracking.first?.offset == .seconds(3))
        let pods = try AdCreativeSignaling.read(Data(#"{"version":2,"type":"pod","payload":[{"duration":15,"tracking":[{"type":"podEnd","urls":["https://t.example/e"]}],"slots":[\#(slot),\#(slot)]}]}"#.utf8)).get()
        #expect(pods.slots.count == 2 && pods.podTracking.map(\.type) == ["podEnd"])
        let base64 = Data(#"{"version":1,"type":"slot","payload":[\#(slot)]}"#.utf8).base64EncodedString()
        #expect(try AdCreativeSignaling.read(base64: base64).get().slots.count == 1)
    }

    @Test func hostileSignalling_isRefusedWithItsReason() {
        let many = #"{"payload":["# + Array(repeating: #"{"start":0,"duration":1}"#, count: 1001).joined(separator: ",") + "]}"
        let urls = #"{"payload":[{"start":0,"duration":1,"tracking":[{"type":"start","urls":["# + Array(repeating: #""u""#, count: 10_001).joined(separator: ",") + "]}]}]}"
        let cases: [(Data, String)] = [
            (Data(many.utf8), "more than 1000 slots"),
            (Data(urls.utf8), "more than 10000 tracking URLs"),
            (Data(#"{"payload":[{"start":-1,"duration":1}]}"#.utf8), "-1.0 s is not a time within a day"),
            (Data(#"{"payload":[{"start":0,"duration":1e300}]}"#.utf8), "is not a time within a day"),
            (Data(String(repeating: "{\"a\":", count: 40).utf8), "deeper than 32"),
            (Data("[]".utf8), "not an SVTA2053 envelope"),
        ]
        for (data, words) in cases {
            guard case let .failure(error) = AdCreativeSignaling.read(data) else { Issue.record("read: \(words)"); continue }
            #expect(error.message.contains(words), "\(error.message)")
        }
        guard case let .failure(error) = AdCreativeSignaling.read(base64: "%%%") else { Issue.record("not base64"); return }
        #expect(error.message.contains("not base64"))
    }

    @Test func theResumeOffset_isTheAttribute_elseWhatPlayed_atMostThePlayoutLimit() throws {
        let data = Self.playlist([
            #"ID="given",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:04Z",X-ASSET-URI="a.m3u8",X-RESUME-OFFSET=1.5"#,
            #"ID="limited",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:08Z",X-ASSET-URI="a.m3u8",X-PLAYOUT-LIMIT=4"#,
            #"ID="played",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:12Z",X-ASSET-URI="a.m3u8""#,
        ])
        let breaks = InterstitialBreaks(try HLSInterstitialReader.read(data, base: Self.base).get())
        #expect(breaks.resumeOffset(0, played: .seconds(10)) == .milliseconds(1500))
        #expect(breaks.resumeOffset(1, played: .seconds(10)) == .seconds(4))
        #expect(breaks.resumeOffset(2, played: .seconds(10)) == .seconds(10))
        #expect(breaks.document.breaks.map(\.timeOffsetText) == ["00:00:04.000", "00:00:08.000", "00:00:12.000"])
    }
}
