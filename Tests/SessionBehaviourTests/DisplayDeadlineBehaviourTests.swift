import AdSession
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// `--display-deadline` (issue 44, item 4): VAST 4.3's 304, no ad displayed within the time limit from the ad request
/// to the first frame, distinct from 402's media timeout. Times on the kit's clocks: the simulated network's startup
/// delay (FFmpeg's byte map of the demo clip) and a tag that never answers on the manual network clock.
@Suite(.hangLimit) struct DisplayDeadlineBehaviourTests {
    /// The demo on 100 kbps: its first second of media arrives after about 2.5 s, within the 8 s media timeout.
    static let slow = ["--vast", "media/demo.xml", "--network", "kbps=100,rtt=100"]

    static var kit: SessionKit {
        var kit = SessionKit()
        kit.realMedia = true
        return kit
    }

    @Test func aFirstFrameAfterTheDeadline_fails304ToTheErrorURL_withNoImpression() async throws {
        let plain = try await Self.kit.run(cli: Self.slow)
        let startup = try #require(plain.summary.playback?.startupDelay)
        #expect(plain.summary.outcome == .completed && startup > .seconds(2) && startup < .seconds(8), "\(startup)")

        let late = try await Self.kit.run(cli: Self.slow + ["--display-deadline", "1"])
        #expect(late.summary.outcome == .adError)
        #expect(late.summary.error?.code.rawValue == 304)
        #expect(late.summary.error?.message.contains("display deadline of 1.000 s") == true, "\(late.summary.error?.message ?? "")")
        #expect(late.summary.error?.message.contains("to buffer its start") == true)
        #expect(late.beacons("error").map { $0.url.components(separatedBy: "&")[0] } == ["http://127.0.0.1:8089/error?code=304"])
        #expect(late.events(.impression).isEmpty && late.events(.start).isEmpty)

        let inTime = try await Self.kit.run(cli: Self.slow + ["--display-deadline", "30"])
        #expect(inTime.summary.outcome == .completed && inTime.beacons("error").isEmpty)
        #expect(inTime.planned.map(\.url).sorted() == plain.planned.map(\.url).sorted(), "a deadline met changes nothing")
    }

    /// A tag that never answers: at the deadline the wait is given up with 304 (before the 8 s first-request
    /// timeout's 301); no ad was chosen, so no Error URL is known, and it says so.
    @Test func aTagStillLoadingAtTheDeadline_isGivenUpThere() async throws {
        var kit = SessionKit()
        kit.tags["https://ads.vplay.test/slow.xml"] = .hang
        var configuration = kit.configuration("https://ads.vplay.test/slow.xml")
        configuration.displayDeadline = .seconds(2)
        let run = await kit.run(configuration) { drive in
            await drive.clock.waitForSleepers(2)  // the deadline and the first request's timeout
            drive.clock.advance(by: .seconds(2))
        }
        #expect(run.summary.outcome == .adError)
        #expect(run.summary.error?.code.rawValue == 304)
        #expect(run.summary.error?.message.contains("still loading") == true && run.summary.error?.message.contains("no Error URL is known") == true,
                "\(run.summary.error?.message ?? "")")
        #expect(run.sent.isEmpty)
    }

    /// `--vast` given a VMAP document: found only at run time, so the deadline and load steps cannot be refused on the
    /// command line; the session says it plays the breaks without them.
    @Test func aVMAPDocumentFoundAtRunTime_saysItPlaysWithoutTheDeadline() async throws {
        var kit = SessionKit()
        kit.tag("https://ads.example/vmap.xml", VMAPDocuments.vmap(VMAPDocuments.adBreak("start", "pre", source: VMAPDocuments.inline(VMAPDocuments.vast(VMAPDocuments.ad("a"))))))
        try kit.media(VMAPDocuments.clip, clip: "clip-5s-video-only.mp4")
        var configuration = try kit.configuration(cli: ["--vast", "https://ads.example/vmap.xml", "--display-deadline", "1",
                                                        "--script", "background@load+0.5,foreground@load+2"])
        configuration.now = kit.wallStart
        let run = await kit.runVMAP(configuration, mode: .detect)
        #expect(run.breaks.map(\.outcome) == [.played])
        #expect(run.warnings.contains { $0.hasPrefix("VPLAY-vmap-option-ignored: --display-deadline, --script background@load+0.5, --script foreground@load+2: ") },
                "\(run.warnings)")
        let plain = await kit.runVMAP(kit.configuration("https://ads.example/vmap.xml"), mode: .detect)
        #expect(!plain.warnings.contains { $0.contains("VPLAY-vmap-option-ignored") })
    }

    @Test func theDeadline_isRefusedWhereItDoesNotApplyYet() {
        #expect(throws: (any Error).self) {
            _ = try SessionKit().configuration(cli: ["--vmap", "media/vmap/demo.xml", "--display-deadline", "1"])
        }
        #expect(throws: (any Error).self) {
            _ = try SessionKit().configuration(cli: ["--vast", "media/demo.xml", "--display-deadline", "0"])
        }
    }
}
