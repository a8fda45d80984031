import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons
import VAST

/// HLS interstitial streams (issue 42, item 3) in process: a content playlist written here, its interstitials played
/// as breaks on the content clock, their assets (the 5.000 s clip, replayed) as a pod, their SVTA2053 signalling as
/// the ads' tracking with VAST macros expanded. Content and ads run on a virtual clock: every time asserted is exact.
@Suite struct InterstitialBehaviourTests {
    static let playlistURL = "https://stream.example/content/index.m3u8"
    static let clip = "clip-5s-video-only.mp4"

    /// A media playlist of `segments` 6 s segments from 2026-01-01T00:00:00Z, with `ranges` date ranges before them.
    static func playlist(_ ranges: [String], segments: Int = 5) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD",
          "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z"] + ranges.map { "#EXT-X-DATERANGE:" + $0 }
            + (0..<segments).flatMap { ["#EXTINF:6.000,", "c\($0).ts"] } + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
    }

    /// An interstitial date range at content `seconds`, with `attributes` after its ID, CLASS and START-DATE.
    static func interstitial(_ id: String, at seconds: Int, _ attributes: String) -> String {
        let date = String(format: "2026-01-01T00:00:%02d.000Z", seconds)
        return "ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\",\(attributes)"
    }

    /// An SVTA2053 slot whose tracking URLs name `name` and carry VAST macros.
    static func slot(_ name: String, duration: Double = 5) -> String {
        let events = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let tracking = events.map { #"{"type":"\#($0)","urls":["https://t.example/\#(name)/\#($0)?ap=[ADPLAYHEAD]&cp=[CONTENTPLAYHEAD]&bp=[BREAKPOSITION]"]}"# }
        return #"{"type":"linear","start":0,"duration":\#(duration),"identifiers":[],"tracking":[\#(tracking.joined(separator: ","))]}"#
    }

    static func envelope(_ payload: String, type: String? = "slot") -> String {
        #"{"version":1,\#(type.map { #""type":"\#($0)","# } ?? "")"payload":[\#(payload)]}"#
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    func kit(_ documents: [String: String], media: [String], failing: [String] = []) throws -> SessionKit {
        var kit = SessionKit()
        for (url, body) in documents { kit.tag(url, body) }
        for url in media { try kit.media(url, clip: Self.clip) }
        for url in failing { kit.media.failures[url] = .notFound(location: url, message: "HTTP 404") }
        return kit
    }

    @Test func aPreRollAndAMidRollList_playOnTheContentClock_oneFailingAssetLeavesTheOther_andTheirSignallingFires() async throws {
        let pod = Self.envelope(#"{"duration":10,"tracking":[{"type":"podStart","urls":["https://t.example/mid/podStart?bp=[BREAKPOSITION]"]},{"type":"podEnd","urls":["https://t.example/mid/podEnd"]}],"slots":[\#(Self.slot("m1")),\#(Self.slot("m2"))]}"#, type: "pod")
        let list = #"{"ASSETS":[{"URI":"https://cdn.example/m1.m3u8","DURATION":5},{"URI":"https://cdn.example/m2.m3u8","DURATION":5}],"X-AD-CREATIVE-SIGNALING":\#(pod)}"#
        let text = Self.playlist([
            Self.interstitial("pre", at: 0, #"CUE="PRE",X-ASSET-URI="https://cdn.example/pre.m3u8",DURATION=5,X-RESUME-OFFSET=0,X-AD-CREATIVE-SIGNALING="\#(Self.base64(Self.envelope(Self.slot("pre"), type: nil)))""#),
            Self.interstitial("mid", at: 12, #"X-ASSET-LIST="/lists/mid.json",X-RESUME-OFFSET=0"#),
        ])
        let kit = try kit([Self.playlistURL: text, "https://stream.example/lists/mid.json": list],
                          media: ["https://cdn.example/pre.m3u8", "https://cdn.example/m2.m3u8"], failing: ["https://cdn.example/m1.m3u8"])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL), mode: .interstitials)
        // The content's 30 s (five 6 s segments, not decoded): the pre-roll 0–5, content 0–12 over 5–17, the list's
        // second asset 17–22 (the first 404s at 17), content 12–30 over 22–40.
        #expect(run.breaks.map(\.offsetText) == ["start", "00:00:12.000"])
        #expect(run.breaks.map(\.start) == [.zero, .seconds(17)] && run.breaks.map(\.end) == [.seconds(5), .seconds(22)])
        #expect(run.breaks.map(\.outcome) == [.played, .played])
        #expect(run.breaks.last?.tagURL == "https://stream.example/lists/mid.json")
        let report = try #require(run.summary.vmap)
        #expect(report.contentDuration == .seconds(30))
        #expect(report.content.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)" } == ["0-12000@5000", "12000-30000@22000"])
        // The SVTA tracking, macros expanded: the pre-roll's quartiles on its own playhead at content 0.
        #expect(run.beacons("firstQuartile").map(\.url) == [
            "https://t.example/pre/firstQuartile?ap=00%3A00%3A01.250&cp=00%3A00%3A00.000&bp=1",
            "https://t.example/m2/firstQuartile?ap=00%3A00%3A01.250&cp=00%3A00%3A12.000&bp=2",
        ])
        #expect(run.beacons("complete").map(\.clock) == [.seconds(5), .seconds(22)])
        #expect(run.beacons("impression").map(\.clock) == [.zero, .seconds(17)])
        // The pod's own tracking is the break's: podStart → breakStart, podEnd → breakEnd.
        #expect(run.beacons("breakStart").map(\.url) == ["https://t.example/mid/podStart?bp=2"])
        #expect(run.beacons("breakEnd").map(\.clock) == [.seconds(22)])
        // The asset that failed fired nothing of its own: its slot's beacons never went out.
        #expect(!run.planned.contains { $0.url.contains("/m1/") })
        #expect(run.breaks.last?.errors.map(\.code) == [401], "\(String(describing: run.breaks.last?.errors))")
    }

    @Test func withoutAResumeOffset_theContentSkipsWhatTheInterstitialPlayed_andAPlayoutLimitDropsTheAssetPastIt() async throws {
        let list = #"{"ASSETS":[{"URI":"https://cdn.example/a.m3u8","DURATION":5},{"URI":"https://cdn.example/b.m3u8","DURATION":5}]}"#
        let text = Self.playlist([
            Self.interstitial("one", at: 6, #"X-ASSET-LIST="https://ads.example/one.json",X-PLAYOUT-LIMIT=5"#),
            Self.interstitial("two", at: 9, #"X-ASSET-URI="https://cdn.example/a.m3u8",DURATION=5"#),
        ])
        let kit = try kit([Self.playlistURL: text, "https://ads.example/one.json": list], media: ["https://cdn.example/a.m3u8", "https://cdn.example/b.m3u8"])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL, dryRun: true), mode: .interstitials)
        // "one" plays its first asset only (the second would start at the 5 s limit), 6–11; the content resumes 5 s
        // on, at 11, which leaves "two" (at 9) behind: passed, never played.
        #expect(run.breaks.map(\.breakID) == ["one", "two"])
        #expect(run.breaks.map(\.outcome) == [.played, .passed])
        #expect(run.breaks.first?.adsPlayed == 1 && run.breaks.first?.start == .seconds(6) && run.breaks.first?.end == .seconds(11))
        #expect(run.ads.map(\.outcome) == [.completed, .notPlayed], "\(run.ads.map(\.outcome))")
        #expect(run.events(.impression).count == 1 && run.events(.rejected).isEmpty)
        let report = try #require(run.summary.vmap)
        #expect(report.content.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)" } == ["0-6000@0", "11000-30000@11000"])
        #expect(run.warnings.contains { $0.contains("VPLAY-sgai-playout-limit") && $0.contains("asset 2 would start at 5") }, "\(run.warnings)")
    }

    @Test func aPlaylistThatCannotBePlaced_isRefusedWith1002_andNothingIsAskedFor() async throws {
        let cases: [(String, String)] = [
            ("#EXTM3U\n#EXT-X-DATERANGE:" + Self.interstitial("x", at: 3, #"X-ASSET-URI="https://cdn.example/a.m3u8""#) + "\n#EXTINF:6,\nc.ts\n", "no EXT-X-PROGRAM-DATE-TIME"),
            (Self.playlist([Self.interstitial("x", at: 50, #"X-ASSET-URI="https://cdn.example/a.m3u8""#)]), "outside the content"),
            (Self.playlist([Self.interstitial("x", at: 3, "DURATION=5")]), "exactly one of X-ASSET-URI and X-ASSET-LIST"),
            (Self.playlist([Self.interstitial("x", at: 3, #"X-ASSET-URI="a.m3u8",X-AD-CREATIVE-SIGNALING="\#(Self.base64(String(repeating: "[", count: 5000)))""#)]), "deeper than 32"),
            (Self.playlist([Self.interstitial("x", at: 3, #"X-ASSET-URI="a.m3u8",X-RESUME-OFFSET=-1"#)]), "X-RESUME-OFFSET=-1 is not a time"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttps://stream.example/content/index.m3u8\n", "multivariant playlist (vplay follows one"),
            ("<VAST/>", "not an HLS playlist"),
        ]
        for (text, words) in cases {
            let kit = try kit([Self.playlistURL: text], media: [])
            let run = await kit.runVMAP(kit.configuration(Self.playlistURL), mode: .interstitials)
            let error = try #require(run.summary.vmap?.documentError, "\(words)")
            #expect(error.code == .parsing && error.message.contains(words), "\(error)")
            #expect(run.summary.outcome == .adError && run.planned.isEmpty)
            // Nothing but the playlist is asked for (a multivariant one naming itself, twice: it is followed once).
            #expect(kit.tagRequests.withLock { $0 }.allSatisfy { $0 == Self.playlistURL })
        }
    }

    @Test func anAssetListThatIsHostile_failsItsBreakWithItsCode_andTheContentPlaysOn() async throws {
        let deep = String(repeating: "[", count: 100_000)
        let many = #"{"ASSETS":["# + Array(repeating: #"{"URI":"a.m3u8","DURATION":1}"#, count: 101).joined(separator: ",") + "]}"
        for (list, words) in [(deep, "deeper than 32"), (many, "more than 100 assets"), ("{}", "not JSON with an \"ASSETS\" array")] {
            let text = Self.playlist([Self.interstitial("x", at: 6, #"X-ASSET-LIST="https://ads.example/l.json""#)])
            let kit = try kit([Self.playlistURL: text, "https://ads.example/l.json": list], media: [])
            let run = await kit.runVMAP(kit.configuration(Self.playlistURL), mode: .interstitials)
            let only = try #require(run.breaks.first)
            #expect(only.outcome == .failed && only.errors.first?.code == 1006 && only.errors.first?.message.contains(words) == true, "\(only.errors)")
            #expect(run.summary.vmap?.content.last?.to == .seconds(30))
        }
    }

    @Test func urlsOutsideThePolicy_areNeverRequested_andTheirBreaksFail() async throws {
        let text = Self.playlist([
            Self.interstitial("list", at: 6, #"X-ASSET-LIST="file:///etc/passwd""#),
            Self.interstitial("asset", at: 12, #"X-ASSET-URI="file:///etc/passwd",DURATION=5"#),
        ])
        let kit = try kit([Self.playlistURL: text], media: [])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL), mode: .interstitials)
        #expect(run.breaks.map(\.outcome) == [.failed, .failed], "\(run.breaks.map(\.errors))")
        #expect(run.breaks.first?.errors.first?.code == 1008 && run.breaks.first?.errors.first?.message.contains("is not an http(s) URL; not requested") == true)
        #expect(kit.tagRequests.withLock { $0 } == [Self.playlistURL])
        #expect(kit.media.opened.withLock { $0 }.isEmpty, "a remote stream's asset never opens a local file")
    }

    /// `audit --interstitials`: a capture of the stream judged break by break, as a VMAP session's is; a device that
    /// never fired its list pod's podEnd fails that break's edge, and only it.
    @Test func anAuditOfTheStream_judgesEachInterstitialAsABreak_includingItsListsPodTracking() async throws {
        let pod = Self.envelope(#"{"duration":5,"tracking":[{"type":"podStart","urls":["https://t.example/mid/podStart"]},{"type":"podEnd","urls":["https://t.example/mid/podEnd"]}],"slots":[\#(Self.slot("m"))]}"#, type: "pod")
        let text = Self.playlist([
            Self.interstitial("pre", at: 0, #"CUE="PRE",X-ASSET-URI="https://cdn.example/pre.m3u8",DURATION=5,X-RESUME-OFFSET=0,X-AD-CREATIVE-SIGNALING="\#(Self.base64(Self.envelope(Self.slot("pre"), type: nil)))""#),
            Self.interstitial("mid", at: 12, #"X-ASSET-LIST="https://ads.example/mid.json",X-RESUME-OFFSET=0"#),
        ])
        let list = #"{"ASSETS":[{"URI":"https://cdn.example/m.m3u8","DURATION":5}],"X-AD-CREATIVE-SIGNALING":\#(pod)}"#
        let kit = try kit([Self.playlistURL: text, "https://ads.example/mid.json": list], media: ["https://cdn.example/pre.m3u8", "https://cdn.example/m.m3u8"])
        let configuration = kit.configuration(Self.playlistURL, dryRun: true)
        let run = await kit.runVMAP(configuration, mode: .interstitials)
        let inspection = try #require(await VMAPInspector(configuration: configuration, mode: .interstitials, environment: kit.environment(configuration).0).inspect())
        func capture(_ beacons: [PlannedBeacon]) -> [CapturedRequest] {
            beacons.enumerated().map { CapturedRequest(url: $0.element.url, sentAt: kit.wallStart + $0.element.clock.wholeMilliseconds, index: $0.offset + 1) }
        }
        let whole = VMAPAudit(inspection: inspection, requests: capture(run.planned))
        #expect(whole.passed && whole.unassigned.isEmpty, "\(whole.breaks.map { ($0.breakStarts, $0.breakEnds, $0.audit?.passed) })")
        #expect(whole.breaks.map(\.breakEnds) == [nil, 1])
        let partial = VMAPAudit(inspection: inspection, requests: capture(run.planned.filter { !$0.url.hasSuffix("/podEnd") }))
        #expect(!partial.passed && partial.breaks.map(\.edgesHold) == [true, false])
    }

    /// X-PLAYOUT-LIMIT inside an asset: the player stops it there — its quartiles up to the limit, no complete, no
    /// closeLinear — and the content resumes as far on as the interstitial played.
    @Test func aPlayoutLimitInsideAnAsset_stopsItThere_withoutItsLaterQuartilesOrComplete() async throws {
        let list = #"{"ASSETS":[{"URI":"https://cdn.example/a.m3u8","DURATION":5},{"URI":"https://cdn.example/b.m3u8","DURATION":5}],"X-AD-CREATIVE-SIGNALING":\#(Self.envelope([Self.slot("a"), Self.slot("b")].joined(separator: ",")))}"#
        let text = Self.playlist([Self.interstitial("one", at: 6, #"X-ASSET-LIST="https://ads.example/one.json",X-PLAYOUT-LIMIT=7"#)])
        let kit = try kit([Self.playlistURL: text, "https://ads.example/one.json": list], media: ["https://cdn.example/a.m3u8", "https://cdn.example/b.m3u8"])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL, dryRun: true), mode: .interstitials)
        // a 6–11 whole; b 11–13 (2 s of it): its firstQuartile (1.25 s) fires, its midpoint (2.5 s) never does.
        #expect(run.beacons("complete").map(\.url).map { $0.contains("/a/") } == [true])
        #expect(run.beacons("firstQuartile").map(\.clock) == [.milliseconds(7250), .milliseconds(12_250)])
        #expect(run.beacons("midpoint").map(\.clock) == [.milliseconds(8500)])
        #expect(run.events(.closeLinear).isEmpty && !run.events(.close).isEmpty)
        let only = try #require(run.breaks.first)
        #expect(only.start == .seconds(6) && only.end == .seconds(13) && only.outcome == .played)
        #expect(run.ads.map(\.outcome) == [.completed, .stopped], "\(run.ads.map(\.outcome))")
        // Nothing of the script was lost: the limit is the player's.
        #expect(run.events(.rejected).isEmpty)
        // Without X-RESUME-OFFSET the content goes on 7 s (what played) after 6: at 13.
        #expect(run.summary.vmap?.content.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)" } == ["0-6000@0", "13000-30000@13000"])
        #expect(run.warnings.contains { $0.contains("stops asset 2 (5.0 to 10.0 s) 2.0 s in") }, "\(run.warnings)")
    }

    /// X-SNAP: OUT leaves the content at the segment boundary closest to the date (7 s → 6 s), IN resumes it at the
    /// boundary closest to the resumption point (6 + 5 = 11 s → 12 s).
    @Test func xSnap_movesTheBreakAndTheResumptionToTheNearestSegmentBoundaries() async throws {
        let text = Self.playlist([Self.interstitial("snap", at: 7, #"X-ASSET-URI="https://cdn.example/a.m3u8",DURATION=5,X-SNAP="OUT,IN""#)])
        let kit = try kit([Self.playlistURL: text], media: ["https://cdn.example/a.m3u8"])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL, dryRun: true), mode: .interstitials)
        #expect(run.breaks.map(\.contentTime) == [.seconds(6)] && run.breaks.map(\.start) == [.seconds(6)])
        #expect(run.summary.vmap?.content.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)" } == ["0-6000@0", "12000-30000@11000"])
    }

    /// X-RESTRICT=JUMP: a forward seek past it plays it at the seek's target, before the last break passed (which a
    /// seek always plays); an unrestricted one between them is passed.
    @Test func aSeekPastAJumpRestrictedInterstitial_playsIt_andTheLastOnePassed() async throws {
        let text = Self.playlist([
            Self.interstitial("locked", at: 6, #"X-ASSET-URI="https://cdn.example/a.m3u8",DURATION=5,X-RESUME-OFFSET=0,X-RESTRICT="JUMP""#),
            Self.interstitial("free", at: 12, #"X-ASSET-URI="https://cdn.example/a.m3u8",DURATION=5,X-RESUME-OFFSET=0"#),
            Self.interstitial("last", at: 15, #"X-ASSET-URI="https://cdn.example/a.m3u8",DURATION=5,X-RESUME-OFFSET=0"#),
        ])
        let kit = try kit([Self.playlistURL: text], media: ["https://cdn.example/a.m3u8"])
        let playback = VMAPPlayback(contentScript: try ContentScript(parsing: "seek@2=20"))
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL, dryRun: true), playback: playback, mode: .interstitials)
        #expect(run.breaks.map { "\($0.breakID ?? "")=\($0.outcome)" } == ["free=passed", "locked=played", "last=played"], "\(run.breaks.map(\.breakID))")
        // Both play at content 20, one after the other: session 2–7 and 7–12.
        #expect(run.breaks.filter { $0.outcome == .played }.map(\.start) == [.seconds(2), .seconds(7)])
    }

    /// A multivariant playlist (MediaTailor's guided sessions start from one) is followed to its first variant.
    @Test func aMultivariantPlaylist_isFollowedToItsFirstVariant_once() async throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nhi/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlo/index.m3u8\n"
        let media = Self.playlist([Self.interstitial("mid", at: 6, #"X-ASSET-URI="../ads/a.m3u8",DURATION=5,X-RESUME-OFFSET=0"#)])
        let kit = try kit([Self.playlistURL: master, "https://stream.example/content/hi/index.m3u8": media], media: ["https://stream.example/content/ads/a.m3u8"])
        let run = await kit.runVMAP(kit.configuration(Self.playlistURL, dryRun: true), mode: .interstitials)
        #expect(run.breaks.map(\.outcome) == [.played] && run.breaks.first?.start == .seconds(6))
        #expect(kit.tagRequests.withLock { $0 } == [Self.playlistURL, "https://stream.example/content/hi/index.m3u8"])
        #expect(run.summary.vmap?.notes.first == "VPLAY-sgai-variant: a multivariant playlist: its first variant, https://stream.example/content/hi/index.m3u8, is read",
                "\(run.summary.vmap?.notes ?? [])")
    }
}
