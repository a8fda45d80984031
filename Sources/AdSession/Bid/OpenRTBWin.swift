import Foundation
import VAST

/// The bid of a response that a session plays, its auction macros filled: its markup (`adm`) or the URL that serves
/// it (`nurl` when there is no `adm`), and its win and billing notices.
struct OpenRTBWin: Sendable, Equatable {
    /// The seat and bid chosen.
    var seat: String?
    var bid: OpenRTBDocument.Bid
    var macros: AuctionMacros
    /// `adm`, macros replaced; nil when the bid has none (the markup is then what `winNotice` answers).
    var markup: String?
    /// `nurl`, macros replaced: fired as the win notice, or fetched as the markup when there is no `adm`.
    var winNotice: String?
    /// `burl`, macros replaced; nil when the bid has none.
    var billingNotice: String?
    /// What the session should say about the bid (several bids, a mismatch with the request, a macro left as written).
    var notes: [(rule: String, text: String)] = []

    static func == (a: OpenRTBWin, b: OpenRTBWin) -> Bool {
        a.seat == b.seat && a.bid == b.bid && a.macros == b.macros && a.markup == b.markup && a.winNotice == b.winNotice
            && a.billingNotice == b.billingNotice && a.notes.map(\.text) == b.notes.map(\.text)
    }

    /// Reasons a bidder gives for not bidding (OpenRTB 2.6 List 5.24).
    static let noBidReasons = ["unknown error", "technical error", "invalid request", "known web spider", "suspected non-human traffic",
                               "cloud, data center or proxy IP", "unsupported device", "blocked publisher or site", "unmatched user",
                               "daily reader cap met", "daily domain cap met"]

    /// The bid a player shows: the highest price among every seat's bids (the first of equal ones), its macros
    /// filled from the response, the request when given, `price` and `now` (ms since 1970, `${AUCTION_IMP_TS}`).
    /// A response without a bid is VAST 303 (no ad), a bid with neither `adm` nor `nurl` 300.
    static func choose(from document: OpenRTBDocument, price: BidSource.Price, now: Int64) -> Result<OpenRTBWin, VASTError> {
        let bids = (document.response.seatbid ?? []).flatMap { seat in (seat.bid ?? []).map { (seat: seat.seat, bid: $0) } }
        guard let best = bids.enumerated().max(by: { a, b in
            let (x, y) = (a.element.bid.price ?? 0, b.element.bid.price ?? 0)
            return x == y ? a.offset > b.offset : x < y
        })?.element else {
            let reason = document.response.nbr.map { code in
                " (nbr \(code): \(noBidReasons.indices.contains(code) ? noBidReasons[code] : "an exchange's own reason"))"
            } ?? ""
            return .failure(VASTError(.noAdAfterWrapper, "bid response: no bid\(reason)"))
        }
        var notes: [(rule: String, text: String)] = []
        if bids.count > 1 {
            notes.append(("choice", "the bid response has \(bids.count) bids; the highest, bid \(best.bid.id ?? "without id") of seat \(best.seat ?? "without name") at \(AuctionMacros.decimal(best.bid.price ?? 0)), is played; the others' notices are the exchange's to send"))
        }
        notes += mismatches(best.bid, document: document)
        let macros = Self.macros(best, document: document, price: price, now: now)
        var win = OpenRTBWin(seat: best.seat, bid: best.bid, macros: macros)
        var left: [String] = []
        // The markup is filled once, as the exchange serves it; a notice fired later keeps `${AUCTION_IMP_TS}` for the
        // moment it fires (`BeaconPlanner`). A `nurl` that serves the markup is requested now.
        func filled(_ text: String?, keeping: Set<String> = []) -> String? {
            guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            let (expanded, unknown) = macros.expand(text, keeping: keeping)
            left += unknown.filter { !left.contains($0) }
            return expanded
        }
        let later: Set<String> = [AuctionMacros.impressionTime]
        win.markup = filled(best.bid.adm)
        win.winNotice = filled(best.bid.nurl, keeping: win.markup == nil ? [] : later).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        win.billingNotice = filled(best.bid.burl, keeping: later).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard win.markup != nil || win.winNotice != nil else {
            return .failure(VASTError(.wrapperGeneral, "bid response: the bid has neither adm nor nurl, so no markup"))
        }
        if !left.isEmpty {
            notes.append(("macro", "\(left.joined(separator: ", ")): no value vplay can give, or an encoding agreed between exchange and bidder (vplay applies B64 only): left as written"))
        }
        win.notes = notes
        return .success(win)
    }

    /// Where the bid does not answer the request it came with.
    private static func mismatches(_ bid: OpenRTBDocument.Bid, document: OpenRTBDocument) -> [(rule: String, text: String)] {
        guard let request = document.request else { return [] }
        var notes: [(rule: String, text: String)] = []
        if let asked = request.id, let answered = document.response.id, asked != answered {
            notes.append(("mismatch", "the response's id \(answered) is not the request's \(asked) (OpenRTB 2.6 §3.2.1: it echoes it)"))
        }
        if let impid = bid.impid {
            if let imp = request.imp?.first(where: { $0.id == impid }) {
                if imp.video == nil { notes.append(("mismatch", "the bid is for imp \(impid), which has no video object: not a video impression")) }
            } else {
                notes.append(("mismatch", "the bid's impid \(impid) names no imp of the request"))
            }
        }
        return notes
    }

    /// The values of the auction macros (OpenRTB 2.6 §4.4) for `best`.
    private static func macros(_ best: (seat: String?, bid: OpenRTBDocument.Bid), document: OpenRTBDocument, price: BidSource.Price, now: Int64) -> AuctionMacros {
        let audit = AuctionMacros.audit
        let bidPrice = best.bid.price ?? 0
        let clearing: String = switch price {
        case .bid: AuctionMacros.decimal(bidPrice)
        case let .given(text): text
        case .audit: audit
        }
        let mbr = Double(clearing).flatMap { value in bidPrice > 0 ? AuctionMacros.decimal(value / bidPrice) : nil } ?? audit
        let imp = document.request?.imp?.first { $0.id == best.bid.impid }
        return AuctionMacros(values: [
            "AUCTION_ID": document.request?.id ?? document.response.id ?? audit,
            "AUCTION_BID_ID": document.response.bidid ?? audit,
            "AUCTION_IMP_ID": best.bid.impid ?? audit,
            "AUCTION_SEAT_ID": best.seat ?? audit,
            "AUCTION_AD_ID": best.bid.adid ?? audit,
            "AUCTION_PRICE": clearing,
            "AUCTION_CURRENCY": document.response.cur ?? document.request?.cur?.first ?? "USD",
            "AUCTION_MBR": mbr,
            // The bid won: no loss reason; the exchange's minimum to win is not in the response.
            "AUCTION_LOSS": audit,
            "AUCTION_MIN_TO_WIN": audit,
            "AUCTION_MULTIPLIER": imp?.qty?.multiplier.map(AuctionMacros.decimal) ?? "1",
            "AUCTION_IMP_TS": String(now),
        ])
    }
}
