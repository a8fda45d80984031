import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons
import VAST

/// VMAP sessions (issue 41) in process: breaks placed on a simulated content clock, played as pods by the session
/// core, their own tracking at their edges, their failures in VMAP's codes. Content and ads run on a virtual clock,
/// so every content and session time asserted is exact.
@Suite struct VMAPBehaviourTests {
    typealias D = VMAPDocuments
    static let vmapURL = "https://ads.example/vmap.xml"

    func kit(_ tags: [String: String]) throws -> SessionKit {
        var kit = SessionKit()
        for (url, body) in tags { kit.tag(url, body) }
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        return kit
    }

    func run(_ tags: [String: String], duration: Duration? = .seconds(40), script: String? = nil, prefetch: Duration = .seconds(8),
             dryRun: Bool = true) async throws -> SessionRun {
        let kit = try kit(tags)
        let playback = VMAPPlayback(contentDuration: duration, breakPrefetch: prefetch, contentScript: try script.map { try ContentScript(parsing: $0) } ?? ContentScript())
        return await kit.runVMAP(kit.configuration(Self.vmapURL, dryRun: dryRun), playback: playback)
    }

    @Test func eachTimeOffsetForm_placesItsBreak_andEachBreakPlaysOnTheSessionClock() async throws {
        let vmap = D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                          D.adBreak("00:00:10.000", "clock", source: D.inline(D.vast(D.ad("a-clock")))),
                          D.adBreak("50%", "percent", source: D.inline(D.vast(D.ad("a-percent")))),
                          D.adBreak("#1", "cue", source: D.inline(D.vast(D.ad("a-cue")))),
                          D.adBreak("end", "post", source: D.inline(D.vast(D.ad("a-post")))))
        let run = try await run([Self.vmapURL: vmap])
        #expect(run.summary.outcome == .completed)
        // Content 0–10, 10–20, 20–40 between breaks of 5 s each: sessions 5–15, 20–30, 35–55.
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(15), .seconds(30), .seconds(55)])
        #expect(run.events(.impression).map(\.adBreak) == [1, 2, 3, 4])
        #expect(run.breaks.map(\.offsetText) == ["start", "00:00:10.000", "50%", "end"])
        #expect(run.breaks.map(\.contentTime) == [.zero, .seconds(10), .seconds(20), .seconds(40)])
        #expect(run.breaks.map(\.position) == [1, 2, 2, 3])
        #expect(run.breaks.map { $0.start } == [.zero, .seconds(15), .seconds(30), .seconds(55)])
        #expect(run.breaks.map { $0.end } == [.seconds(5), .seconds(20), .seconds(35), .seconds(60)])
        let vmapReport = try #require(run.summary.vmap)
        #expect(vmapReport.content.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)-\($0.end.wholeMilliseconds)" }
            == ["0-10000@5000-15000", "10000-20000@20000-30000", "20000-40000@35000-55000"])
        #expect(vmapReport.contentComplete == .seconds(55))
        // #1 names a cue point the simulated content does not have: said, not placed.
        #expect(vmapReport.notes.contains { $0.contains("#n names an ad opportunity") })
        // Each break's own tracking at its edges, [BREAKPOSITION] its own; the ads' beacons carry it and the content time.
        #expect(run.beacons("breakStart").map(\.url) == [
            "https://t.example/pre/breakStart?bp=1&ts=2026-01-01T00%3A00%3A00.000%2B00%3A00",
            "https://t.example/clock/breakStart?bp=2&ts=2026-01-01T00%3A00%3A15.000%2B00%3A00",
            "https://t.example/percent/breakStart?bp=2&ts=2026-01-01T00%3A00%3A30.000%2B00%3A00",
            "https://t.example/post/breakStart?bp=3&ts=2026-01-01T00%3A00%3A55.000%2B00%3A00",
        ])
        #expect(run.beacons("breakEnd").map(\.clock) == [.seconds(5), .seconds(20), .seconds(35), .seconds(60)])
        #expect(run.beacons("impression").map(\.url) == [
            "https://t.example/a-pre/impression?bp=1&cp=00%3A00%3A00.000", "https://t.example/a-clock/impression?bp=2&cp=00%3A00%3A10.000",
            "https://t.example/a-percent/impression?bp=2&cp=00%3A00%3A20.000", "https://t.example/a-post/impression?bp=3&cp=00%3A00%3A40.000",
        ])
        #expect(run.beacons("complete").map(\.clock) == [.seconds(5), .seconds(20), .seconds(35), .seconds(60)])
        #expect(run.beacons(inBreak: 2).map(\.event) == ["breakStart", "impression", "complete", "breakEnd"])
        #expect(run.beacons("error").isEmpty)
    }

    @Test func anAdTagURIBreak_isAskedForThePrefetchLeadBeforeItsTime_withItsMacros() async throws {
        let vmap = D.vmap(D.adBreak("00:00:30", "mid", source: D.tagURI("https://ads.example/mid?bp=[BREAKPOSITION]&cb=[CACHEBUSTING]")))
        let kit = try kit([Self.vmapURL: vmap, "https://ads.example/mid": D.vast(D.ad("a-mid"))])
        let run = await kit.runVMAP(kit.configuration(Self.vmapURL, dryRun: true), playback: VMAPPlayback(contentDuration: .seconds(60)))
        let mid = try #require(run.breaks.first)
        #expect(mid.outcome == .played && mid.requestedAt == .seconds(22) && mid.start == .seconds(30))
        #expect(mid.tagURL?.hasPrefix("https://ads.example/mid?bp=2&cb=") == true)
        // The VMAP and the break's tag, each once.
        #expect(kit.tagRequests.withLock { $0 }.map { $0.components(separatedBy: "?")[0] } == [Self.vmapURL, "https://ads.example/mid"])
        #expect(run.events(.impression).map(\.clock) == [.seconds(30)])
        #expect(run.summary.vmap?.content.last?.end == .seconds(65))
    }

    @Test func twoBreaksAtOneOffset_playOneAfterTheOther_inDocumentOrder() async throws {
        let vmap = D.vmap(D.adBreak("00:00:10", "first", source: D.inline(D.vast(D.ad("a-first")))),
                          D.adBreak("25%", "second", source: D.inline(D.vast(D.ad("a-second")))))
        let run = try await run([Self.vmapURL: vmap])
        #expect(run.breaks.map(\.breakID) == ["first", "second"])
        #expect(run.events(.impression).map(\.clock) == [.seconds(10), .seconds(15)])
        #expect(run.summary.vmap?.notes.contains { $0.contains("2 breaks at 00:00:10.000") && $0.contains("document order") } == true)
    }

    @Test func repeatAfter_repeatsTheBreak_andARepeatGivesWayToABreakAlreadyThere() async throws {
        let vmap = D.vmap(D.adBreak("start", "every", source: D.inline(D.vast(D.ad("a-every"))), extra: " repeatAfter=\"00:00:20\""),
                          D.adBreak("00:00:40", "fixed", source: D.inline(D.vast(D.ad("a-fixed")))))
        let run = try await run([Self.vmapURL: vmap], duration: .seconds(70))
        #expect(run.breaks.map { "\($0.breakID ?? "")#\($0.occurrence)@\($0.contentTime.wholeMilliseconds / 1000)" }
            == ["every#0@0", "every#1@20", "fixed#0@40", "every#3@60"])
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(25), .seconds(50), .seconds(75)])
        #expect(run.summary.vmap?.notes.contains { $0.contains("gives way to break 2") } == true)
    }

    @Test func aPostRoll_withoutContentComplete_isRequestedAndNeverPlays() async throws {
        let vmap = D.vmap(D.adBreak("end", "post", source: D.tagURI("https://ads.example/post")))
        let tags = [Self.vmapURL: vmap, "https://ads.example/post": D.vast(D.ad("a-post"))]
        let withheld = try await run(tags, script: "contentComplete@never")
        let post = try #require(withheld.breaks.first)
        #expect(post.outcome == .withheld && post.requestedAt == .seconds(32))
        #expect(withheld.events(.impression).isEmpty && withheld.beacons("breakStart").isEmpty)
        #expect(withheld.summary.vmap?.contentComplete == nil)
        #expect(withheld.warnings.contains { $0.contains("VPLAY-vmap-postroll-withheld") })
        // Signalled early, at content 25: the content ends there and the post-roll plays.
        let early = try await run(tags, script: "contentComplete@25")
        #expect(early.breaks.first?.outcome == .played && early.events(.impression).map(\.clock) == [.seconds(25)])
        #expect(early.summary.vmap?.contentComplete == .seconds(25))
    }

    @Test func aPodThatLosesOneAd_movesOn_andTheBreakErrorSaysWhichCode() async throws {
        let pod = D.vast(D.ad("p1", sequence: 1), D.ad("p2", sequence: 2, media: "https://cdn.example/missing.mp4"), D.ad("p3", sequence: 3))
        let run = try await run([Self.vmapURL: D.vmap(D.adBreak("start", "pod", source: D.inline(pod)))])
        let report = try #require(run.breaks.first)
        #expect(report.outcome == .played && report.adsTried == 3 && report.adsPlayed == 2)
        #expect(run.events(.impression).map { $0.ad?.id } == ["p1", "p3"])
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(5)])
        let code = try #require(report.errors.first?.code)
        #expect((400..<500).contains(code))
        #expect(run.beacons("error").map(\.url).contains { $0.hasPrefix("https://t.example/pod/error?code=\(code)&message=") })
        #expect(run.beacons("error").map(\.url).contains("https://t.example/p2/error?code=\(code)"))
        #expect(run.beacons("breakEnd").map(\.clock) == [.seconds(10)])
    }

    @Test func aBreakWhoseTagNeverAnswers_firesItsErrorWith1007_andTheContentGoesOn() async throws {
        let vmap = D.vmap(D.adBreak("00:00:10", "slow", source: D.tagURI("https://ads.example/slow")),
                          D.adBreak("00:00:20", "next", source: D.inline(D.vast(D.ad("a-next")))))
        var kit = try kit([Self.vmapURL: vmap])
        kit.tags["https://ads.example/slow"] = .hang
        let run = await kit.runVMAP(kit.configuration(Self.vmapURL, dryRun: true), playback: VMAPPlayback(contentDuration: .seconds(40))) { drive in
            await drive.clock.waitForSleepers()
            drive.clock.advance(by: .seconds(8))  // IMA's first-request timeout
        }
        #expect(run.breaks.map(\.outcome) == [.failed, .played])
        #expect(run.breaks.first?.errors.map(\.code) == [1007])
        #expect(run.beacons("error").map { $0.url.components(separatedBy: "&")[0] } == ["https://t.example/slow/error?code=1007"])
        #expect(run.beacons("breakStart").map(\.url).allSatisfy { $0.contains("/next/") })
        #expect(run.events(.impression).map(\.clock) == [.seconds(20)])
        #expect(run.summary.outcome == .adError)
    }

    @Test func aMalformedBreakResponse_is1006_andAMalformedVMAP_is1002() async throws {
        let vmap = D.vmap(D.adBreak("start", "bad", source: D.tagURI("https://ads.example/bad")))
        let bad = try await run([Self.vmapURL: vmap, "https://ads.example/bad": "<VAST version=\"4.1\"><Ad>"])
        #expect(bad.breaks.first?.errors.map(\.code) == [1006])
        #expect(bad.beacons("error").first?.url.hasPrefix("https://t.example/bad/error?code=1006&message=") == true)
        let broken = try await run([Self.vmapURL: "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\"><vmap:AdBreak>"])
        #expect(broken.summary.outcome == .adError && broken.summary.vmap?.documentError?.code == .parsing)
    }

    @Test func breaksThisPlayerDoesNotPlay_areSkippedWithTheirCode_notSilently() async throws {
        let vmap = D.vmap(D.adBreak("00:00:05", "overlay", source: D.inline(D.vast(D.ad("a-overlay"))), type: "nonlinear"),
                          D.adBreak("00:00:10", "custom", source: "<vmap:CustomAdData templateType=\"proprietary\">x</vmap:CustomAdData>"),
                          D.adBreak("00:00:15", "vmaptemplate", source: D.tagURI("https://ads.example/x", template: "vmap1")),
                          D.adBreak("00:00:20", "both", source: D.inline(D.vast(D.ad("a-both"))), type: "linear,nonlinear"))
        let run = try await run([Self.vmapURL: vmap])
        #expect(run.breaks.map(\.outcome) == [.skipped, .skipped, .skipped, .played])
        #expect(run.breaks.map { $0.errors.first?.code } == [1003, 1005, 1005, nil])
        #expect(run.beacons("error").map { $0.url.components(separatedBy: "&")[0] }
            == ["https://t.example/overlay/error?code=1003", "https://t.example/custom/error?code=1005", "https://t.example/vmaptemplate/error?code=1005"])
        #expect(run.warnings.filter { $0.contains("VPLAY-vmap-break-not-played") }.count == 3)
        #expect(run.summary.outcome == .completed)
    }

    @Test func aForwardSeek_passesBreaks_andPlaysTheLastOnePassed() async throws {
        let vmap = D.vmap(D.adBreak("00:00:10", "ten", source: D.inline(D.vast(D.ad("a-ten")))),
                          D.adBreak("00:00:20", "twenty", source: D.inline(D.vast(D.ad("a-twenty")))),
                          D.adBreak("00:00:30", "thirty", source: D.inline(D.vast(D.ad("a-thirty")))))
        let run = try await run([Self.vmapURL: vmap], script: "seek@5=25")
        #expect(run.breaks.map { "\($0.breakID ?? ""):\($0.outcome)" } == ["ten:passed", "twenty:played", "thirty:played"])
        #expect(run.events(.impression).map(\.clock) == [.seconds(5), .seconds(15)])
        #expect(run.summary.vmap?.content.map { "\($0.from.wholeMilliseconds / 1000)-\($0.to.wholeMilliseconds / 1000)" } == ["0-5", "25-30", "30-40"])
    }

    @Test func theAppInTheBackground_holdsTheContent_whileTheSessionClockGoesOn() async throws {
        let vmap = D.vmap(D.adBreak("00:00:10", "mid", source: D.inline(D.vast(D.ad("a-mid")))))
        let run = try await run([Self.vmapURL: vmap], script: "background@4=30")
        #expect(run.events(.impression).map(\.clock) == [.seconds(40)])
        #expect(run.summary.vmap?.content.first.map { ($0.from, $0.to, $0.start, $0.end) } ?? (.zero, .zero, .zero, .zero) == (.zero, .seconds(4), .zero, .seconds(4)))
    }

    @Test func expectationsByBreak_speakOfThatBreakOnly_andAGoldenFileOfAVMAPRunHoldsForIt() async throws {
        let vmap = D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("same")))),
                          D.adBreak("end", "post", source: D.inline(D.vast(D.ad("same")))))
        let run = try await run([Self.vmapURL: vmap])
        var transcript = SessionTranscript()
        for record in run.records { transcript.add(record) }
        // The same ad in both breaks: told apart only by break.
        let byBreak = SessionExpectations(events: [.init(name: "impression", clock: 0, count: 1, adBreak: 1), .init(name: "impression", clock: 45, adBreak: 2)],
                                          beacons: [.init(event: "impression", count: 1, adBreak: 2), .init(event: "breakEnd", count: 1, adBreak: 1)])
        let results = byBreak.check(transcript, summary: run.summary)
        #expect(results.allSatisfy { $0.passed }, "\(results.filter { !$0.passed })")
        let wrong = SessionExpectations(events: [.init(name: "impression", clock: 0, adBreak: 2)])
        let failed = try #require(wrong.check(transcript, summary: run.summary).first)
        #expect(!failed.passed && failed.name.contains("in break 2") && failed.detail?.contains("45.000") == true)
        // A golden file recorded from the run holds for it, keeps each break apart, and reads back as written.
        let golden = SessionExpectations(recording: transcript, summary: run.summary)
        let goldenResults = golden.check(transcript, summary: run.summary)
        #expect(goldenResults.allSatisfy { $0.passed }, "\(goldenResults.filter { !$0.passed })")
        #expect(golden.beacons?.filter { $0.event == "impression" }.map(\.adBreak) == [1, 2])
        let data = try JSONEncoder().encode(golden)
        #expect(String(decoding: data, as: UTF8.self).contains("\"break\":2"))
        #expect(try JSONDecoder().decode(SessionExpectations.self, from: data) == golden)
    }

    @Test func anAuditOfAPlayerThatFiresNoBreakTracking_splitsTheCaptureByEachBreaksAds_andFailsOnlyTheEdges() async throws {
        let vmap = D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                          D.adBreak("00:00:10", "mid", source: D.inline(D.vast(D.ad("a-mid")))))
        let kit = try kit([Self.vmapURL: vmap])
        let configuration = kit.configuration(Self.vmapURL, dryRun: true)
        let run = await kit.runVMAP(configuration, playback: VMAPPlayback(contentDuration: .seconds(30)))
        // What such a player sends: every beacon of the session but the breaks' own, at its session time.
        let requests = run.planned.filter { !$0.event.hasPrefix("break") }.enumerated().map { offset, beacon in
            CapturedRequest(url: beacon.url, sentAt: kit.wallStart + beacon.clock.wholeMilliseconds, index: offset + 1)
        }
        let inspection = try #require(await VMAPInspector(configuration: configuration, playback: VMAPPlayback(contentDuration: .seconds(30)), mode: .vmap,
                                                          environment: kit.environment(configuration).0).inspect())
        let audit = VMAPAudit(inspection: inspection, requests: requests)
        #expect(audit.breaks.map(\.requests.count) == [2, 2] && audit.unassigned.isEmpty)
        #expect(audit.breaks.map { $0.audit?.passed } == [true, true])
        #expect(audit.breaks.map(\.breakStarts) == [0, 0] && audit.breaks.allSatisfy { !$0.edgesHold } && !audit.passed)
    }
}
