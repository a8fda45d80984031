import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// Streams played by a stitcher's client-side tracking document (issue 42, item 2) in process: the stream on a
/// virtual clock, so every beacon's session time is exact.
@Suite struct TrackedStreamBehaviourTests {
    typealias D = TrackingDocuments
    static let url = "https://stitcher.example/v1/tracking/session-1?aws.reportingMode=client"

    func run(_ document: String, playback: TrackedStreamPlayback = TrackedStreamPlayback(), kit: SessionKit = SessionKit()) async -> SessionRun {
        var kit = kit
        if kit.tags[Self.url] == nil { kit.tag(Self.url, document) }
        return await kit.runTrackedStream(kit.configuration(Self.url, dryRun: true), playback: playback)
    }

    static func ms(_ beacons: [PlannedBeacon]) -> [Int64] { beacons.map(\.clock.wholeMilliseconds) }

    @Test func mediaTailorsDocumentedExample_firesEachQuartileAtItsDocumentedSecond() async throws {
        let run = await run(D.mediaTailorExample())
        #expect(run.summary.outcome == .completed)
        #expect(Self.ms(run.beacons("impression")) == [17_817])
        #expect(Self.ms(run.beacons("start")) == [17_817])
        #expect(Self.ms(run.beacons("firstQuartile")) == [21_592])
        #expect(Self.ms(run.beacons("midpoint")) == [25_367])
        #expect(Self.ms(run.beacons("thirdQuartile")) == [29_142])
        #expect(Self.ms(run.beacons("complete")) == [32_917])
        // The avail's own: breakStart first at its moment, breakEnd after the ad's complete.
        #expect(run.planned.map(\.event) == ["breakStart", "impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "breakEnd"])
        #expect(run.beacons("breakStart").map(\.url) == ["http://exampleadserver.com/break?e=start&cp=00%3A00%3A17.817&bp=2"])
        #expect(run.planned.allSatisfy { $0.adBreak == 1 })
        // Playback events with the ad's own playhead.
        #expect(run.events(.thirdQuartile).map(\.playhead) == [.milliseconds(11_325)])
        let report = try #require(run.summary.tracking)
        #expect(report.avails.count == 1 && report.avails[0].ads[0].events.allSatisfy { $0.status == .fired })
        // The document's times agree with the ad's span to the millisecond: no finding but the assumed length.
        #expect(report.findings.count == 1 && report.findings[0].contains("assumed: 62.917"))
        #expect(report.content.last?.end == .milliseconds(62_917))
    }

    @Test func aTimeOffTheAdsSpan_firesAtTheDocumentsTime_andIsAFinding() async throws {
        let run = await run(D.mediaTailorExample(firstQuartile: "22.000"))
        #expect(Self.ms(run.beacons("firstQuartile")) == [22_000])
        let report = try #require(run.summary.tracking)
        #expect(report.findings.contains { $0.contains("firstQuartile is due at 22.0 s by the document, 21.592 s by the ad's span") })
        #expect(report.avails[0].ads[0].events[2].ruleTime == .milliseconds(21_592))
    }

    @Test func hybridReporting_leavesTheTimedEventsToTheServer_andFiresTheViewersOwn() async throws {
        let pause = D.event("pause", at: "17.817", urls: ["http://t.example/pause"]), resume = D.event("resume", at: "17.817", urls: ["http://t.example/resume"])
        let playback = TrackedStreamPlayback(reporting: .hybrid, contentScript: try ContentScript(parsing: "background@20=5"))
        let run = await run(D.mediaTailorExample(extraEvents: [pause, resume]), playback: playback)
        #expect(run.planned.map(\.event) == ["pause", "resume"])
        #expect(Self.ms(run.planned) == [20_000, 25_000])
        let events = try #require(run.summary.tracking).avails[0].ads[0].events
        #expect(events.filter { $0.status == .server }.map(\.type) == ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"])
    }

    @Test func aBackgroundDuringTheAd_pausesIt_andItsLaterEventsFireLaterOnTheSessionClock() async throws {
        let pause = D.event("pause", at: "17.817", urls: ["http://t.example/pause?ap=[ADPLAYHEAD]"])
        let playback = TrackedStreamPlayback(contentScript: try ContentScript(parsing: "background@20=5"))
        let run = await run(D.mediaTailorExample(extraEvents: [pause]), playback: playback)
        #expect(run.beacons("pause").map(\.url) == ["http://t.example/pause?ap=00%3A00%3A02.183"])
        #expect(Self.ms(run.beacons("firstQuartile")) == [26_592])
        #expect(Self.ms(run.beacons("complete")) == [37_917])
        let spans = try #require(run.summary.tracking).content
        #expect(spans.map { "\($0.from.wholeMilliseconds)-\($0.to.wholeMilliseconds)@\($0.start.wholeMilliseconds)" } == ["0-20000@0", "20000-62917@25000"])
    }

    @Test func aForwardSeekPastQuartiles_neverFiresThem_andABackwardOneFiresNothingTwice() async throws {
        let playback = TrackedStreamPlayback(contentScript: try ContentScript(parsing: "seek@20=27,seek@30=19"))
        let run = await run(D.mediaTailorExample(), playback: playback)
        #expect(run.planned.map(\.event) == ["breakStart", "impression", "start", "thirdQuartile", "complete", "breakEnd"])
        let events = try #require(run.summary.tracking).avails[0].ads[0].events
        #expect(events.map(\.status) == [.fired, .fired, .seekedPast, .seekedPast, .fired, .fired])
        // 20 s played, the seek to 27, 3 s to the third quartile at 29.142: 22.142 s of session time.
        #expect(Self.ms(run.beacons("thirdQuartile")) == [22_142])
    }

    @Test func aLiveDocument_isPolled_withItsNextToken_andNewAvailsPlay() async throws {
        var kit = SessionKit()
        kit.tag(Self.url, D.document([D.avail("a1", start: 5, duration: 10)], nextToken: "T1"))
        kit.tag(Self.url + "&nextToken=T1", D.document([D.avail("a1", start: 5, duration: 10), D.avail("a2", start: 40, duration: 8)], nextToken: "T2"))
        let playback = TrackedStreamPlayback(streamDuration: .seconds(60), pollInterval: .seconds(20))
        let run = await run("", playback: playback, kit: kit)
        #expect(kit.tagRequests.withLock { $0 } == [Self.url, Self.url + "&nextToken=T1", Self.url + "&nextToken=T2"])
        #expect(Self.ms(run.beacons("complete")) == [15_000, 48_000])
        #expect(run.beacons("midpoint").map(\.url) == ["http://t.example/a1/midpoint?ap=00%3A00%3A05.000", "http://t.example/a2/midpoint?ap=00%3A00%3A04.000"])
        let report = try #require(run.summary.tracking)
        #expect(report.polls == 3 && report.avails.map(\.availID) == ["a1", "a2"])
        // The third answer (T2) was not canned: the failed poll is a finding, the avails known played on.
        #expect(report.findings.contains { $0.contains("the poll at 40.0 s of the stream failed") })
        // Said when found: before the second avail's complete (at 48 s), not when the stream ends.
        let said = run.records.firstIndex { if case let .warning(text) = $0 { text.contains("the poll at 40.0 s") } else { false } }
        let complete = run.records.firstIndex { if case let .beacon(record) = $0 { record.url.hasPrefix("http://t.example/a2/complete") } else { false } }
        #expect(try #require(said) < (try #require(complete)))
    }

    @Test func anEventTheStreamNeverReaches_isNotFired_andSaysSo() async throws {
        let run = await run(D.mediaTailorExample(), playback: TrackedStreamPlayback(streamDuration: .seconds(26)))
        #expect(run.planned.map(\.event) == ["breakStart", "impression", "start", "firstQuartile", "midpoint"])
        let events = try #require(run.summary.tracking).avails[0].ads[0].events
        #expect(events.suffix(2).map(\.status) == [.notReached, .notReached])
    }
}
