import Foundation
import Testing
import TestSupport

/// `--bid` end to end (issue 44, item 5): a bid request/response pair served over loopback HTTP with the media beside
/// it, played by the real process to the embedded sink. The winning seat's notices arrive at the sink and reconcile
/// with the ad's own beacons; the losing seat's notices and `lurl` are never sent; the bid is asked for once; every
/// line on stdout fits its schema. Each `--billing-on` moment.
@Suite(.hangLimit) struct BidTests {
    static func beacons(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["kind"] as? String == "beacon" } }

    @Test(arguments: ["render", "impression", "viewable"])
    func aBidOverHTTP_firesItsNoticesToTheSink_once(billing: String) async throws {
        let server = try ScriptedHTTPServer(files: Repo.root.appendingPathComponent("media").path)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try await vplay(["--bid", "\(server.baseURL)/bids/bid-pair.json", "--billing-on", billing, "--sink", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let beacons = Self.beacons(run.lines)
        let notices = beacons.filter { $0["source"] as? String == "bid" }
        #expect(notices.compactMap { $0["event"] as? String }.sorted() == ["burl", "nurl"], "\(notices)")
        #expect(notices.allSatisfy { $0["status"] as? Int == 200 }, "\(notices)")
        let nurl = notices.first { $0["event"] as? String == "nurl" }, burl = notices.first { $0["event"] as? String == "burl" }
        #expect((nurl?["url"] as? String)?.hasSuffix("/rtb/b/win?auction=auction-2&imp=1&price=4.2&cur=USD") == true, "\(notices)")
        #expect(!beacons.contains { ($0["url"] as? String)?.contains("/rtb/a/") == true || ($0["url"] as? String)?.contains("/loss") == true })
        // Lines come as answers arrive, so the order of the moments is the kit's to check (BidBehaviourTests); here,
        // the session time each notice carries.
        #expect(burl?["clock"] as? Double == (billing == "viewable" ? 2 : 0), "\(notices)")
        // `${AUCTION_IMP_TS}`: the wall time the billing notice went out, ms since 1970 (a plausible one: this year's).
        let stamp = (burl?["url"] as? String)?.components(separatedBy: "&ts=").last.flatMap { Int64($0) } ?? 0
        #expect(stamp > 1_700_000_000_000 && stamp < 4_000_000_000_000, "\(burl ?? [:])")
        let sink = try #require(run.lines.first { $0["kind"] as? String == "reconciliation" })
        #expect(sink["matched"] as? Int == beacons.count && sink["received"] as? Int == beacons.count, "\(sink)")
        #expect(server.requests().filter { $0.target.hasPrefix("/bids/") }.count == 1, "\(server.requests().map(\.target))")
        let lines = try folder.write("run.jsonl", run.stdout)
        let errors = try await JSONSchemaCheck.validate([.init(lines, schema: "events.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A response without a bid: one line on stderr with its code, exit 3, nothing sent.
    @Test func noBid_exits3_withVAST303() async throws {
        let server = try ScriptedHTTPServer { _ in .body(Data(#"{"id":"x","seatbid":[],"nbr":1}"#.utf8), contentType: "application/json") }
        defer { server.stop() }
        let run = try await vplay(["--bid", "\(server.baseURL)/bid.json", "--sink"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last == "vplay: error: VAST 303: bid response: no bid (nbr 1: technical error)", "\(run.stderr)")
    }
}
