import AdSession
import Foundation
import Testing
import TestSupport
import VAST

/// VMAP fleets (issue 41, item 5) in process: each viewer watches to a point drawn from the watch mix, each break is
/// reached by those who watch that far, and each break's fleet sends what its oracle expects — its ads' beacons and
/// the break's own breakStart and breakEnd, once a viewer.
@Suite struct VMAPFleetBehaviourTests {
    typealias D = VMAPDocuments
    static let vmapURL = "https://ads.example/vmap.xml"

    @Test func eachBreak_isReachedByTheViewersWhoWatchThatFar_andSendsWhatItsOracleExpects() async throws {
        var kit = SessionKit()
        kit.tag(Self.vmapURL, D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                                     D.adBreak("00:00:10", "mid", source: D.inline(D.vast(D.ad("a-mid")))),
                                     D.adBreak("end", "post", source: D.inline(D.vast(D.ad("a-post"))))))
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        let watchMix = try WatchMix(parsing: "end:1,5:1,50%:1")
        var fleet = FleetConfiguration(session: kit.configuration(Self.vmapURL), sessions: 60, mix: try FleetMix(parsing: "complete:3,skip:1,close:1"))
        fleet.concurrency = 4
        let (outcome, sent) = await kit.vmapFleet(fleet, playback: VMAPPlayback(contentDuration: .seconds(30)), watchMix: watchMix)
        guard case let .vmap(report) = outcome else { Issue.record("not a VMAP fleet: \(outcome)"); return }
        // Who watches how far, viewer by viewer: to the end, 5 s (the pre-roll only), 15 s (half: the mid-roll too).
        let points = (0..<60).map { watchMix.draw(index: $0, seed: 1) }
        let toTheEnd = points.filter { $0 == 0 }.count, pastTen = points.filter { $0 != 1 }.count
        #expect(toTheEnd > 0 && toTheEnd < pastTen && pastTen < 60)
        #expect(report.breaks.map(\.reach) == [60, pastTen, toTheEnd])
        #expect(report.breaks.map(\.outcome) == ["played", "played", "played"])
        for item in report.breaks {
            let breakReport = try #require(item.report)
            #expect(breakReport.population.scenarios.values.reduce(0, +) == item.reach)
            for row in breakReport.population.beacons {
                #expect(row.sent == row.expected, "break \(item.number) \(row.event) \(row.template): sent \(row.sent), expected \(row.expected)")
            }
            let edges = breakReport.population.beacons.filter { $0.event == "breakStart" || $0.event == "breakEnd" }
            #expect(edges.map(\.event) == ["breakStart", "breakEnd"] && edges.allSatisfy { $0.expected == item.reach })
        }
        #expect(report.checksPass)
        // Every break's own tracking went out once a viewer who reached it, with its position.
        #expect(sent.filter { $0.hasPrefix("https://t.example/mid/breakStart?bp=2&") }.count == pastTen)
        #expect(sent.filter { $0.hasPrefix("https://t.example/post/breakEnd?") }.count == toTheEnd)
        #expect(sent.filter { $0.hasPrefix("https://t.example/a-post/impression?bp=3&cp=00%3A00%3A30.000") }.count == toTheEnd)
    }

    /// A break's `error` tracking, in a fleet as in a session: a break not asked for (a nonlinear break, 1003), a
    /// break whose response fails as a whole (1008), a pod that loses one ad and plays on (its VAST code). Every viewer
    /// who reaches the break fires what one session of the document fires for it, and the oracle predicts it.
    @Test func aFailingBreaksErrorTracking_isFiredByEveryViewerWhoReachesIt_asInOneSession() async throws {
        var kit = SessionKit()
        let pod = D.vast(D.ad("p1", sequence: 1), D.ad("p2", sequence: 2, media: "https://media.example/missing.mp4"), D.ad("p3", sequence: 3))
        kit.tag(Self.vmapURL, D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                                     D.adBreak("00:00:05", "overlay", source: D.inline(D.vast(D.ad("a-overlay"))), type: "nonlinear"),
                                     D.adBreak("00:00:10", "gone", source: D.tagURI("https://ads.example/gone.xml")),
                                     D.adBreak("end", "post", source: D.inline(pod))))
        kit.tags["https://ads.example/gone.xml"] = .failure(VASTError(.wrapperGeneral, "HTTP 404 from https://ads.example/gone.xml"))
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        kit.media.failures["https://media.example/missing.mp4"] = .notFound(location: "https://media.example/missing.mp4", message: "404")
        let playback = VMAPPlayback(contentDuration: .seconds(30))

        let one = await kit.runVMAP(kit.configuration(Self.vmapURL), playback: playback)
        let errorsOfOne = one.planned.filter { $0.event == "error" && $0.source.hasPrefix("vmap break") }
        #expect(errorsOfOne.map { $0.url.components(separatedBy: "&")[0] }
                == ["https://t.example/overlay/error?code=1003", "https://t.example/gone/error?code=1008", "https://t.example/post/error?code=401"],
                "\(errorsOfOne.map(\.url))")

        let watchMix = try WatchMix(parsing: "end:1,7:1")
        var fleet = FleetConfiguration(session: kit.configuration(Self.vmapURL), sessions: 40, mix: try FleetMix(parsing: "complete:1"))
        fleet.concurrency = 4
        let (outcome, sent) = await kit.vmapFleet(fleet, playback: playback, watchMix: watchMix)
        guard case let .vmap(report) = outcome else { Issue.record("not a VMAP fleet: \(outcome)"); return }
        #expect(report.breaks.map(\.outcome) == ["played", "skipped", "failed", "played"])
        let reach = report.breaks.map(\.reach)
        #expect(reach[1] == 40 && reach[2] > 0 && reach[2] < 40 && reach[3] == reach[2], "\(reach)")
        for item in report.breaks {
            let rows = try #require(item.report, "break \(item.number)").population.beacons
            for row in rows { #expect(row.sent == row.expected, "break \(item.number) \(row.event) \(row.template)") }
            let errors = rows.filter { $0.event == "error" && $0.source.hasPrefix("vmap break") }
            #expect(errors.map(\.template) == errorsOfOne.filter { $0.adBreak == item.number }.map(\.url), "break \(item.number): \(errors)")
            #expect(errors.allSatisfy { $0.sent == item.reach })
        }
        #expect(sent.filter { $0.hasPrefix("https://t.example/gone/error?code=1008&message=") }.count == reach[2])
        #expect(report.checksPass)
    }

    /// `--shard K/N`: every shard works out each break's reach over all the viewers and runs its share of each
    /// break's fleet; merged, the shards are the whole fleet, break by break; shards of another fleet do not merge.
    @Test func shardsOfAVMAPFleet_mergeIntoTheWhole() async throws {
        var kit = SessionKit()
        kit.tag(Self.vmapURL, D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                                     D.adBreak("00:00:10", "mid", source: D.inline(D.vast(D.ad("a-mid"))))))
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        let playback = VMAPPlayback(contentDuration: .seconds(30))
        func fleet(_ shard: FleetShard, seed: UInt64 = 1) async throws -> VMAPFleetReport {
            var session = kit.configuration(Self.vmapURL)
            session.seed = seed
            var fleet = FleetConfiguration(session: session, sessions: 45, mix: try FleetMix(parsing: "complete:3,skip:1,close:1"))
            fleet.shard = shard
            let (outcome, _) = await kit.vmapFleet(fleet, playback: playback, watchMix: try WatchMix(parsing: "end:1,5:1"))
            guard case let .vmap(report) = outcome else { throw KitCommandLineError(description: "not a VMAP fleet") }
            return report
        }
        let whole = try await fleet(.whole)
        let shards = [try await fleet(FleetShard(index: 0, count: 3)), try await fleet(FleetShard(index: 1, count: 3)), try await fleet(FleetShard(index: 2, count: 3))]
        #expect(shards.allSatisfy { $0.breaks.map(\.reach) == whole.breaks.map(\.reach) })
        let merged = try VMAPFleetReport.merge(shards)
        #expect(merged.shards == [0, 1, 2] && merged.missingShards == nil && merged.checksPass)
        for (mine, theirs) in zip(merged.breaks, whole.breaks) {
            #expect(mine.report?.population.beacons == theirs.report?.population.beacons, "break \(mine.number)")
            #expect(mine.report?.population.scenarios == theirs.report?.population.scenarios)
        }
        #expect(try VMAPFleetReport.merge(Array(shards.prefix(2))).missingShards == [2])
        let other = try await fleet(FleetShard(index: 1, count: 3), seed: 2)
        #expect(throws: FleetReport.MergeError.self) { try VMAPFleetReport.merge([shards[0], other]) }
    }

    @Test func aVASTTagGivenToTheDetectingFleet_runsAsTheOneTagFleetItIs() async throws {
        var kit = SessionKit()
        kit.tag(Self.vmapURL, D.vast(D.ad("plain")))
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        let fleet = FleetConfiguration(session: kit.configuration(Self.vmapURL, dryRun: true), sessions: 5, mix: try FleetMix(parsing: "complete:1"))
        let (outcome, _) = await kit.vmapFleet(fleet, mode: .detect)
        guard case let .vast(.success(report)) = outcome else { Issue.record("not a VAST fleet: \(outcome)"); return }
        #expect(report.checks.sentAsExpected && report.fleet.sessions == 5)
        #expect(kit.tagRequests.withLock { $0 } == [Self.vmapURL])
    }

    @Test func watchMixes_parseEveryPointForm_andRefuseOthers() throws {
        #expect(try WatchMix(parsing: "end:60,50%:25,30:15").description == "end:60,50%:25,30:15")
        for bad in ["end", "101%:1", "-3:1", "x:1", "end:1,end:2", "end:0"] {
            #expect(throws: WatchMix.ParseError.self, "\(bad)") { try WatchMix(parsing: bad) }
        }
    }
}
