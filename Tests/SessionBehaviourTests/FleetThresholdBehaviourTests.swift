import AdSession
import Foundation
import Testing
import TestSupport

/// `fleet --threshold` (issue 43, item 2) judged on fleets run in process: each scope (the fleet, an event, a tracking
/// URL, a network, an ad of a pod) passing and failing on the report's own counts, and what cannot be read refused.
@Suite struct FleetThresholdBehaviourTests {
    func report(_ arguments: [String], kit: SessionKit = SessionKit()) async throws -> FleetReport {
        try await kit.fleet(cli: ["fleet"] + arguments).0.get()
    }

    func judge(_ texts: [String], _ report: FleetReport) throws -> [Bool] {
        try texts.map { try FleetThreshold(parsing: $0).evaluate(report).passed }
    }

    @Test func eachScope_passesAndFails_onTheReportsOwnCounts() async throws {
        // 200 viewers of the demo, seed 3, the default mix: every URL sent as expected; complete only by those who finish.
        let report = try await report(["--vast", "media/demo.xml", "--sessions", "200", "--seed", "3"])
        let complete = try #require(report.population.beacons.first { $0.event == "complete" })
        let share = Double(complete.sent) / 200
        #expect(share < 1 && share > 0.5)
        #expect(try judge(["sent/expected==1", "delivered/sent>=0.999", "sent>=2000", "failures==0"], report) == [true, true, true, true])
        #expect(try judge(["sent<100", "delivered/sent<1"], report) == [false, false])
        #expect(try judge(["event=complete:sent/expected==1", "event=complete:sent>=\(complete.sent)", "event=complete:sent>\(complete.sent)"], report)
            == [true, true, false])
        #expect(try judge(["url=/firstQuartile?:sent==\(report.population.beacons.first { $0.event == "firstQuartile" }!.sent)", "url=/nowhere:sent>=0"], report)
            == [true, false])
        let verdict = try FleetThreshold(parsing: "url=/nowhere:sent>=0").evaluate(report)
        #expect(verdict.actual == nil && verdict.message == "url=/nowhere:sent>=0: no tracking URL in its scope")
        // Arrivals are counted only with a sink: a threshold on them cannot hold without one.
        #expect(try FleetThreshold(parsing: "received/sent>=0.99").evaluate(report).message.contains("only with --sink"))
    }

    @Test func aPodsAd_andANetwork_areScopes() async throws {
        let pod = try await report(["--vast", "media/pods/pod.xml", "--sessions", "50", "--seed", "2", "--mix", "complete:1"])
        let secondAd = pod.population.beacons.filter { $0.ad == 2 }
        #expect(!secondAd.isEmpty)
        #expect(try judge(["ad=2:sent/expected==1", "ad=2:sent==\(secondAd.reduce(0) { $0 + $1.sent })", "ad=9:sent>=0"], pod) == [true, true, false])
        var kit = SessionKit()
        kit.realMedia = true
        let networks = try await report(["--vast", "media/demo.xml", "--sessions", "100", "--seed", "3", "--mix", "complete:1",
                                         "--network-mix", "wifi:50,offline:50"], kit: kit)
        let offline = try #require(networks.population.networks?["offline"])
        #expect(offline.sessions > 0 && offline.failedToLoad == offline.sessions)
        #expect(try judge(["network=offline:failedToLoad/sessions==1", "network=wifi:complete/sessions==1", "network=offline:complete/sessions>=0.5",
                           "network=5g:sessions>=1"], networks) == [true, true, false, false])
        // A network's own beacons: the offline viewers' are their Error URLs only, and the kit answers them all.
        let wifi = try #require(networks.population.networks?["wifi"])
        #expect(offline.beaconsSent == offline.sessions && wifi.beaconsSent > wifi.sessions)
        #expect(try judge(["network=wifi:delivered/sent==1", "network=offline:sent==\(offline.sessions)", "network=wifi:failures>0"],
                          networks) == [true, true, false])
    }

    @Test func latency_isTheFleetsWithItsUnit() async throws {
        let report = try await report(["--vast", "media/demo.xml", "--sessions", "20", "--seed", "1"])
        let latency = report.performance.latency
        #expect(latency.count > 0)
        let p99 = try FleetThreshold(parsing: "latency.p99<=\(Int((latency.p99 * 1000).rounded(.up)) + 1)ms").evaluate(report)
        #expect(p99.passed, "\(p99.message)")
        #expect(try FleetThreshold(parsing: "latency.max<\(latency.max)s").evaluate(report).passed == false)
    }

    @Test func whatCannotBeRead_isRefusedSayingWhy() {
        let cases: [(String, String)] = [
            ("received/sent", "no comparison"),
            ("bogus>=1", "bogus is not a count here"),
            ("event=complete:sessions>=1", "sessions is not a count here"),
            ("network=wifi:expected>=1", "expected is not a count here"),
            ("latency.p95<1ms", "is not latency.p50, .p90, .p99 or .max"),
            ("latency.p99<250", "a latency is a time with its unit"),
            ("event=complete:latency.p99<1s", "latency is the whole fleet's"),
            ("ad=0:sent>=1", "ad= takes an ad's 1-based place"),
            ("place=1:sent>=1", "the scope is event=, url=, network= or ad="),
            ("sent>=many", "many is not a number"),
            ("a/b/c>=1", "a is not a count here"),
        ]
        for (text, words) in cases {
            #expect(throws: FleetThresholdError.self, "\(text)") { try FleetThreshold(parsing: text) }
            do { _ = try FleetThreshold(parsing: text) } catch { #expect(error.message.contains(words), "\(text): \(error.message)") }
        }
        #expect((try? FleetThreshold(parsing: "url=http://x/y?a=1:sent>=1"))?.scope == .url("http://x/y?a=1"))
        #expect((try? FleetThreshold(parsing: "received/sent>=0.999"))?.comparison == .ge)
        #expect((try? FleetThreshold(parsing: "sent<=3"))?.comparison == .le)
    }
}
