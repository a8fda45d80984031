import AdSession
import Foundation
import Primitives
import Testing
import TestSupport

/// Fleets in process on the kit's doubles (`vplay fleet` command lines parsed as `vplay` parses them): the oracle's
/// expected count of every tracking URL equals what the sessions sent and what was delivered, for icon views and
/// viewers on simulated networks too; shards add up to the whole fleet; warnings are reported once and kept by a
/// merge; no ad fails the fleet before any session plays. A real sink receiving every beacon, and `vplay merge` on
/// report files, are `FleetEndToEndTests`.
@Suite struct FleetOracleBehaviourTests {
    let kit = SessionKit()

    func report(_ arguments: [String], on kit: SessionKit? = nil) async throws -> (report: FleetReport, sent: [String]) {
        let (result, sent) = try await (kit ?? self.kit).fleet(cli: ["fleet"] + arguments)
        return (try result.get(), sent)
    }

    /// Every tracking URL's beacons: expected = sent = delivered, no failure, and the transport was asked for
    /// exactly as many.
    static func expectEveryBeaconCountedOnce(_ report: FleetReport, sent: [String]) {
        for beacon in report.population.beacons {
            #expect(beacon.expected == beacon.sent && beacon.sent == beacon.delivered, "\(beacon)")
        }
        #expect(report.population.failures.isEmpty, "\(report.population.failures)")
        #expect(sent.count == report.population.beacons.reduce(0) { $0 + $1.sent })
        #expect(report.checks.sentAsExpected && report.checks.receivedAsSent == nil, "no sink: nothing received to count")
    }

    /// Issue 37, item 11: a fleet whose beacons hang, told to stop (a signal cancels its task), ends after the 2 s
    /// interrupted drain. Its workers used to wait for room to start a session until hung beacons timed out (a
    /// SIGTERM took over 30 s); the stop lets them go. On the kit's network clock: every request slot holds a beacon
    /// that answers after 60 s, and the test moves the clock only by the drain's 2 s.
    @Test func aStoppedFleetWhoseBeaconsHang_stopsWaitingForRoom_andEndsAfterTheInterruptedDrain() async throws {
        var kit = SessionKit()
        kit.answers = [.status(204, delay: .seconds(60))]
        let fleet = Task { [kit] in
            try await kit.fleet(cli: ["fleet", "--vast", "media/demo.xml", "--sessions", "1000", "--concurrency", "4", "--seed", "3",
                                      "--beacon-concurrency", "4", "--beacon-timeout", "120"])
        }
        // Every request slot holds a hung beacon (each sleeps on the network clock): the workers wait for room.
        await kit.networkClock.waitForSleepers(4)
        fleet.cancel()
        // The interrupted drain sleeps its 2 s beside the four (a readiness wait in real time: without the stop the
        // workers never reach it).
        for _ in 0..<6000 where kit.networkClock.sleeperCount < 5 { try await Task.sleep(for: .milliseconds(10)) }
        let drainStarted = kit.networkClock.sleeperCount >= 5
        #expect(drainStarted, "the stopped fleet still waits for room to start sessions")
        if !drainStarted {
            // Move the network on until the fleet ends, so the (failed) test ends.
            let clock = kit.networkClock
            let ticking = Task { while !Task.isCancelled { clock.advance(by: .seconds(1)); try? await Task.sleep(for: .milliseconds(5)) } }
            _ = try? await fleet.value
            ticking.cancel()
            return
        }
        kit.networkClock.advance(by: AdSessionRunner.interruptedDrain)
        let (result, sent) = try await fleet.value
        let report = try result.get()
        #expect(kit.networkClock.now.offset == AdSessionRunner.interruptedDrain, "ended when the drain did")
        #expect(report.fleet.sessions == 1000 && sent.count >= 4)
        #expect(report.population.scenarios.values.reduce(0, +) < 1000, "no session started after the stop")
    }

    @Test func fiveHundredSessions_everyBeaconExpectedSentAndDeliveredExactly() async throws {
        let (report, sent) = try await report(["--vast", "media/demo.xml", "--sessions", "500", "--concurrency", "16", "--seed", "5",
                                               "--mix", "complete:50,background:15,pause:5,click:10,skip:10,close:10"])
        Self.expectEveryBeaconCountedOnce(report, sent: sent)
        let beacons = report.population.beacons
        #expect(beacons.count == 19, "every tracking URL of the demo tag is listed")
        #expect(beacons.first { $0.event == "impression" }?.sent == 500)
        #expect(report.population.scenarios.values.reduce(0, +) == 500)
        #expect(Set(report.population.scenarios.keys) == ["complete", "background", "pause", "click", "skip", "close"])
        #expect(report.performance.latency.count == beacons.reduce(0) { $0 + $1.sent })
    }

    /// Icons in a fleet: every session that reaches an icon's offset fires its view tracking once, and the oracle's
    /// expected count (closes before the offset fire none) matches what was sent.
    @Test func iconViews_areExpectedSentAndDeliveredExactly() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "</MediaFiles>", with: """
                </MediaFiles><Icons><Icon program="AdChoices" width="20" height="20" offset="00:00:03" duration="00:00:02">
                <StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:8089/static/adchoices.png]]></StaticResource>
                <IconViewTracking><![CDATA[http://127.0.0.1:8089/icon/view?at=[ADPLAYHEAD]]]></IconViewTracking></Icon></Icons>
                """)
        let tag = try folder.write("icon.xml", text)
        let (report, sent) = try await report(["--vast", tag, "--sessions", "300", "--seed", "9", "--mix", "complete:40,skip:20,close:40"])
        Self.expectEveryBeaconCountedOnce(report, sent: sent)
        let views = try #require(report.population.beacons.first { $0.event == "icon.viewTracking" })
        #expect(views.sent > 0 && views.sent < 300, "closes before 3 s never show the icon: \(views)")
        #expect(views.expected == views.sent && views.delivered == views.sent, "\(views)")
        #expect(sent.filter { $0.contains("/icon/view?") }.count == views.sent)
    }

    /// A report as `vplay merge` reads it: through its JSON.
    static func reread(_ report: FleetReport) throws -> FleetReport { try JSONDecoder().decode(FleetReport.self, from: report.json()) }

    @Test func threeShardsMerged_equalTheUnshardedFleet() async throws {
        let common = ["--vast", "media/demo.xml", "--sessions", "240", "--seed", "21",
                      "--mix", "complete:60,background:20,skip:10,close:10", "--now", "2026-01-01T00:00:00Z"]
        let whole = try Self.reread(try await report(common).report)
        var shards: [FleetReport] = []
        for shard in 0..<3 { shards.append(try Self.reread(try await report(common + ["--shard", "\(shard)/3"]).report)) }
        #expect(shards.map { $0.population.scenarios.values.reduce(0, +) } == [80, 80, 80])
        let merged = try FleetReport.merge([shards[2], shards[0], shards[1]])
        #expect(merged.population == whole.population,
                "the population of the merged shards is the whole fleet's; failures \(whole.population.failures) and \(merged.population.failures)")
        #expect(merged.checks == whole.checks)
        #expect(whole.fleet.shards == [0] && merged.fleet.shards == [0, 1, 2])
        #expect(merged.fleet.missingShards == nil, "a complete merge has none")
        var (fleetA, fleetB) = (whole.fleet, merged.fleet)
        (fleetA.shards, fleetA.shardCount, fleetB.shards, fleetB.shardCount) = ([], 0, [], 0)
        #expect(fleetA == fleetB)
        // Shards of different fleets, or a shard twice, do not merge.
        #expect(Self.mergeError([shards[0], shards[0]])?.contains("shard 0 is given twice") == true)
        #expect(Self.mergeError([shards[0], whole])?.contains("not shards of one fleet") == true)
        // Two of three shards: not the whole fleet, and the report says which shard is missing.
        let partial = try FleetReport.merge([shards[0], shards[2]])
        #expect(partial.fleet.missingShards == [1])
        #expect(partial.population.scenarios.values.reduce(0, +) == 160)
    }

    static func mergeError(_ reports: [FleetReport]) -> String? {
        do { _ = try FleetReport.merge(reports); return nil } catch { return error.description }
    }

    /// Warnings met preparing the fleet are in its report (they used to be gathered and dropped), once each, and a
    /// merge keeps them.
    @Test func warnings_areReported_andKeptByMerge() async throws {
        let folder = try TemporaryFolder()
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:20.000</Duration>")
            .replacingOccurrences(of: "clip-10s-360p.mp4", with: Repo.media("clip-10s-360p.mp4"))
        let path = try folder.write("ad.xml", tag)
        var reports: [FleetReport] = []
        for shard in ["0/2", "1/2"] {
            reports.append(try Self.reread(try await report(["--vast", path, "--sessions", "4", "--dry-run", "--shard", shard]).report))
        }
        let expected = ["VPLAY-media-duration-declared: VAST <Duration> 00:00:20.000 differs from the media's 00:00:10.000 by more than 1 s; quartiles use the media's"]
        #expect(reports.map(\.warnings) == [expected, expected])
        #expect(try FleetReport.merge(reports).warnings == expected)
    }

    /// No ad: the fleet fails with the ad error 303 (exit 3) before any session plays; every session fires the
    /// response's Error URL all the same, and the report of that (issue 37, item 16) carries the error and counts it.
    @Test func noAd_isAnAdError_beforeAnySessionPlays_andItsReportCountsTheErrorURL() async throws {
        var kit = kit
        kit.tag("https://ads.example/noad.xml", #"<VAST version="4.1"><Error><![CDATA[https://t.example/err?c=[ERRORCODE]]]></Error></VAST>"#)
        let (result, sent) = try await kit.fleet(cli: ["fleet", "--vast", "https://ads.example/noad.xml", "--sessions", "10"])
        guard case let .failure(failure) = result else {
            Issue.record("the fleet played: \(result)")
            return
        }
        #expect(failure.error.kind == .ad && failure.error.code.rawValue == 303, "\(failure.error)")
        let report = try #require(failure.report, "the failed fleet's report")
        #expect(report.error == FleetReport.Failure(kind: "ad", code: 303, message: failure.error.message))
        #expect(report.population.beacons.map { "\($0.event) \($0.template) \($0.expected) \($0.sent) \($0.delivered)" }
            == ["error https://t.example/err?c=[ERRORCODE] 10 10 10"])
        #expect(report.checks.sentAsExpected && sent == Array(repeating: "https://t.example/err?c=303", count: 10))
    }

    /// `--network-mix`: viewers on simulated networks. The oracle predicts the stalls, the refused skips they cause and
    /// the 402s of a network too slow to load the media in time; expected and sent agree; the report says per network
    /// how many viewers reached each quartile. The media is FFmpeg's (a simulated network needs the bytes' map).
    @Test func networkMix_isPredictedExactly_andReportedPerNetwork() async throws {
        var kit = kit
        kit.realMedia = true
        let (report, sent) = try await report(["--vast", "media/demo.xml", "--sessions", "300", "--seed", "3",
                                               "--mix", "complete:40,background:10,pause:10,click:10,skip:15,close:15",
                                               "--network-mix", "wifi:40,kbps=150/rtt=100:40,offline:20"], on: kit)
        Self.expectEveryBeaconCountedOnce(report, sent: sent)
        let networks = try #require(report.population.networks)
        #expect(Set(networks.keys) == ["wifi", "kbps=150,rtt=100", "offline"])
        let offline = try #require(networks["offline"]), slow = try #require(networks["kbps=150,rtt=100"]), wifi = try #require(networks["wifi"])
        #expect(offline.failedToLoad == offline.sessions && offline.sessions > 0)
        #expect(slow.sessionsThatStalled > 0 && wifi.sessionsThatStalled == 0)
        #expect(networks.values.map(\.sessions).reduce(0, +) == 300)
        // Every beacon is counted on its viewer's network too: the networks' add up to the fleet's.
        #expect(networks.values.map(\.beaconsSent).reduce(0, +) == report.population.beacons.map(\.sent).reduce(0, +))
        #expect(networks.values.map(\.beaconsDelivered).reduce(0, +) == report.population.beacons.map(\.delivered).reduce(0, +))
        #expect(offline.beaconsSent == offline.sessions && offline.beaconsFailed == 0 && wifi.beaconsDelivered == wifi.beaconsSent)
        let errors = try #require(report.population.beacons.first { $0.event == "error" })
        #expect(errors.expected == offline.sessions && errors.sent == offline.sessions, "each offline viewer fires the ad's Error URL with 402: \(errors)")
        #expect(sent.filter { $0.contains("/error?code=402&") }.count == offline.sessions)
        #expect(report.fleet.networkMix == "wifi:40,kbps=150/rtt=100:40,offline:20")
    }
}
