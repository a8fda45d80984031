import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// `--bid` (issue 44, item 5): an OpenRTB 2.x bid response's winning markup plays; its win notice (`nurl`) fires
/// before the ad, its billing notice (`burl`) when `--billing-on` says (SDKs disagree: prebid-mobile-ios#1059), its
/// loss notice (`lurl`) never; `${AUCTION_PRICE}` and the other macros filled. The bids are `media/bids/` (the
/// OpenRTB 2.6 example shape around the demo tag); times on the kit's clocks.
@Suite(.hangLimit) struct BidBehaviourTests {
    func index(_ run: SessionRun, _ event: String) -> Int? { run.planned.firstIndex { $0.event == event } }

    @Test func theWinningBidPlays_nurlFirst_burlWithTheImpression_lurlNever() async throws {
        // The order beacons are planned in is a dry run's (sent ones are recorded as they are answered).
        let order = try await SessionKit().run(cli: ["--bid", "media/bids/bid-pair.json", "--dry-run"])
        #expect(index(order, "nurl") == 0, "the win notice before anything of the ad: \(order.planned.map(\.event))")
        let impressions = order.planned.indices.filter { order.planned[$0].event == "impression" }
        #expect(index(order, "burl") == impressions.last.map { $0 + 1 }, "right after the ad's own impression URLs")
        let run = try await SessionKit().run(cli: ["--bid", "media/bids/bid-pair.json"])
        #expect(run.summary.outcome == .completed, "\(run.summary.error.map(\.message) ?? "")")
        let nurl = try #require(run.beacons("nurl").first)
        #expect(run.beacons("nurl").count == 1)
        #expect(nurl.url == "http://127.0.0.1:8089/rtb/b/win?auction=auction-2&imp=1&price=4.2&cur=USD", "the higher bid, seat b: \(nurl.url)")
        #expect(nurl.source == "bid")
        let burl = try #require(run.beacons("burl").first)
        #expect(run.beacons("burl").count == 1)
        #expect(burl.url == "http://127.0.0.1:8089/rtb/b/bill?bid=response-2&seat=seat-b&price=4.2&p64=NC4y&mbr=1&ts=1767225600000", "\(burl.url)")
        #expect(burl.template.hasSuffix("&ts=${AUCTION_IMP_TS}"), "filled when it fires: \(burl.template)")
        #expect(burl.clock == .zero)
        #expect(run.beacons("impression").first?.url.contains("price=4.2&") == true, "the markup's own macros filled by the exchange's rule")
        #expect(!run.sent.contains { $0.contains("/rtb/a/") || $0.contains("/loss") }, "the losing seat's notices and lurl are never sent")
        #expect(run.sent.contains(nurl.url) && run.sent.contains(burl.url))
        #expect(run.warnings.contains { $0.contains("VPLAY-bid-choice") && $0.contains("bid bid-b of seat seat-b at 4.2") }, "\(run.warnings)")

        let priced = try await SessionKit().run(cli: ["--bid", "media/bids/bid-pair.json", "--price", "2.1"])
        #expect(priced.beacons("burl").first?.url.hasSuffix("price=2.1&p64=Mi4x&mbr=0.5&ts=1767225600000") == true, "\(priced.beacons("burl").map(\.url))")
    }

    /// `render`: billed when the ad is ready to show, shown or not. The demo on 100 kbps is ready (its media open)
    /// before its first frame, which a 1 s display deadline never lets show: billed on render, not on impression.
    @Test func render_billsAnAdThatIsReadyButNeverShown_impressionDoesNot() async throws {
        var kit = SessionKit()
        kit.realMedia = true
        let slow = ["--bid", "media/bids/bid.json", "--network", "kbps=100,rtt=100", "--display-deadline", "1"]
        let render = try await kit.run(cli: slow + ["--billing-on", "render", "--dry-run"])
        #expect(render.summary.error?.code.rawValue == 304)
        #expect(render.events(.impression).isEmpty)
        #expect(render.beacons("burl").count == 1 && render.beacons("nurl").count == 1)
        #expect((index(render, "burl") ?? 0) < (index(render, "error") ?? 0), "billed when ready, before the 304")

        let impression = try await kit.run(cli: slow)
        #expect(impression.summary.error?.code.rawValue == 304)
        #expect(impression.beacons("burl").isEmpty && impression.beacons("nurl").count == 1, "no impression, no bill; the bid still won")

        let shown = try await SessionKit().run(cli: ["--bid", "media/bids/bid.json", "--billing-on", "render", "--dry-run"])
        #expect(index(shown, "burl") == 1 && index(shown, "loaded") == 2, "ready, then its first frame: \(shown.planned.map(\.event))")
    }

    /// `viewable`: billed when the MRC rule is met (2 s of play in view), measured even though the demo asks for no
    /// viewability; an ad closed before then is never billed, and with viewability off nothing can bill it.
    @Test func viewable_billsAtTheViewableMoment_andNeverWithoutIt() async throws {
        let run = try await SessionKit().run(cli: ["--bid", "media/bids/bid.json", "--billing-on", "viewable", "--dry-run"])
        let burl = try #require(run.beacons("burl").first)
        #expect(burl.clock == .seconds(2) && run.events(.viewable).map(\.clock) == [.seconds(2)])
        #expect(burl.url.hasSuffix("&ts=1767225602000"), "${AUCTION_IMP_TS}: the moment it bills, 2 s after the first frame: \(burl.url)")
        #expect((index(run, "burl") ?? 0) > (index(run, "start") ?? 99), "\(run.planned.map(\.event))")

        let closed = try await SessionKit().run(cli: ["--bid", "media/bids/bid.json", "--billing-on", "viewable", "--script", "close@1"])
        #expect(closed.beacons("burl").isEmpty && closed.events(.notViewable).count == 1)

        let off = try await SessionKit().run(cli: ["--bid", "media/bids/bid.json", "--billing-on", "viewable", "--viewability", "off"])
        #expect(off.beacons("burl").isEmpty)
        #expect(off.warnings.contains { $0.contains("VPLAY-bid-no-billing") && $0.contains("burl never fires") }, "\(off.warnings)")
    }

    /// No `adm`: the markup is what `nurl` answers, and that request is the win notice (not fired again). The bid is
    /// requested once although the session looks at it first (VMAP or VAST?) and then resolves it.
    @Test func withoutAdm_theNurlServesTheMarkup_asItsWinNotice() async throws {
        var kit = SessionKit()
        kit.media.timelines["https://exchange.vplay.test/clip-10s-360p.mp4"] = try TimelineMediaOpener.clip("clip-10s-360p.mp4")
        let bid = #"{"id":"r","seatbid":[{"seat":"s","bid":[{"id":"b","impid":"1","price":1.5,"nurl":"https://exchange.vplay.test/win?p=${AUCTION_PRICE}","burl":"https://exchange.vplay.test/bill?p=${AUCTION_PRICE}"}]}]}"#
        kit.tags["https://exchange.vplay.test/bid.json"] = .body(Data(bid.utf8))
        kit.tags["https://exchange.vplay.test/win?p=1.5"] = .body(Data(try String(contentsOf: Repo.root.appendingPathComponent("media/demo.xml"), encoding: .utf8).utf8))
        let run = try await kit.run(cli: ["--bid", "https://exchange.vplay.test/bid.json"])
        #expect(run.summary.outcome == .completed, "\(run.summary.error.map(\.message) ?? "")")
        #expect(run.beacons("nurl").isEmpty)
        #expect(run.beacons("burl").map(\.url) == ["https://exchange.vplay.test/bill?p=1.5"])
        #expect(kit.tagRequests.withLock { $0 } == ["https://exchange.vplay.test/bid.json", "https://exchange.vplay.test/win?p=1.5"])
        #expect(run.summary.hops.count == 1)
    }

    /// A pod in `adm`: one bid, one bill, with the first ad of the pod that plays; the win notice before the pod.
    @Test func aPodsBid_isBilledOnce_withItsFirstAdThatPlays() async throws {
        var kit = SessionKit()
        kit.media.timelines["https://exchange.vplay.test/clip-5s-video-only.mp4"] = try TimelineMediaOpener.clip("clip-5s-video-only.mp4")
        let pod = try String(contentsOf: Repo.root.appendingPathComponent("media/pods/pod.xml"), encoding: .utf8)
        let response: [String: Any] = ["id": "r", "seatbid": [["bid": [["impid": "1", "price": 2, "adm": pod, "nurl": "https://exchange.vplay.test/win",
                                                                        "burl": "https://exchange.vplay.test/bill"]]]]]
        kit.tags["https://exchange.vplay.test/sub/pod.json"] = .body(try JSONSerialization.data(withJSONObject: response))
        let run = try await kit.run(cli: ["--bid", "https://exchange.vplay.test/sub/pod.json", "--dry-run"])
        #expect(run.summary.ads.count == 3, "\(run.summary.error.map(\.message) ?? "")")
        #expect(index(run, "nurl") == 0)
        let burls = run.planned.indices.filter { run.planned[$0].event == "burl" }
        #expect(burls.count == 1)
        let firstAdImpression = try #require(run.planned.firstIndex { $0.event == "impression" })
        #expect(burls.first.map { $0 > firstAdImpression } == true && run.planned[burls[0] - 1].event == "impression", "\(run.planned.map(\.event))")
        #expect(run.planned[burls[0]].ad == 1, "with the pod's first ad")
    }

    @Test func noBid_is303_andNothingIsSent() async throws {
        var kit = SessionKit()
        kit.tags["https://exchange.vplay.test/none.json"] = .body(Data(#"{"id":"r","seatbid":[],"nbr":8}"#.utf8))
        let run = try await kit.run(cli: ["--bid", "https://exchange.vplay.test/none.json"])
        #expect(run.summary.outcome == .adError)
        #expect(run.summary.error?.code.rawValue == 303 && run.summary.error?.message == "bid response: no bid (nbr 8: unmatched user)")
        #expect(run.sent.isEmpty)
    }

    @Test func aFleet_predictsAndCountsTheNotices() async throws {
        let (result, sent) = try await SessionKit().fleet(cli: ["fleet", "--bid", "media/bids/bid.json", "--sessions", "40", "--billing-on", "viewable"])
        let report = try result.get()
        let rows = report.population.beacons.filter { $0.source == "bid" }
        #expect(rows.map(\.event) == ["nurl", "burl"], "\(rows)")
        for row in report.population.beacons { #expect(row.expected == row.sent, "\(row)") }
        #expect(rows.first?.sent == 40)
        #expect(rows.last.map { $0.sent > 0 } == true, "\(rows)")
        #expect(report.checks.sentAsExpected)
        #expect(sent.filter { $0.contains("/rtb/a/bill") }.count == rows.last?.sent)
    }

    /// `audit --bid`: the notices are judged with the ad's beacons, each at most once (a device's capture need not
    /// hold them); a billing notice sent twice is a duplicate.
    @Test func anAudit_expectsEachNoticeAtMostOnce() async throws {
        let kit = SessionKit()
        let configuration = try kit.configuration(cli: ["--bid", "media/bids/bid.json"])
        let run = await kit.run(configuration)
        var requests = run.attempts.enumerated().map { index, beacon in
            CapturedRequest(url: beacon.url, sentAt: kit.wallStart + beacon.clock.wholeMilliseconds, index: index + 1)
        }
        let inspection = await kit.inspect(configuration)
        let fine = BeaconAudit(inspection: inspection, requests: requests)
        let notices = fine.trackers.filter { $0.source == "bid" }
        #expect(notices.map(\.event) == ["nurl", "burl"] && notices.allSatisfy { $0.seen == 1 && $0.minimum == 0 && $0.maximum == 1 && $0.verdict == .ok })
        #expect(fine.passed)
        let bill = try #require(requests.first { $0.url.contains("/rtb/a/bill") })
        requests.append(CapturedRequest(url: bill.url, sentAt: bill.sentAt, index: requests.count + 1))
        let twice = BeaconAudit(inspection: inspection, requests: requests)
        #expect(twice.trackers.first { $0.event == "burl" }?.verdict == .duplicated && !twice.passed)
        let without = BeaconAudit(inspection: inspection, requests: requests.filter { !$0.url.contains("/rtb/") })
        #expect(without.trackers.filter { $0.source == "bid" }.allSatisfy { $0.verdict == .ok })
    }

    @Test func theBidOptions_goTogether() {
        for arguments in [["--vast", "media/demo.xml", "--price", "1"], ["--vast", "media/demo.xml", "--billing-on", "render"],
                          ["--bid", "media/bids/bid.json", "--vast", "media/demo.xml"], ["--bid", "media/bids/bid.json", "--price", "-1"]] {
            #expect(throws: (any Error).self, "\(arguments)") { _ = try SessionKit().configuration(cli: arguments) }
        }
    }
}
