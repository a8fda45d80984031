import Foundation
import Testing
import VAST
@testable import AdSession

/// `--bid` (issue 44, item 5), the pure parts: reading an OpenRTB 2.x response, choosing its bid, filling its
/// auction macros as OpenRTB 2.6 §4.4 says.
struct OpenRTBBidTests {
    static let macros = AuctionMacros(values: ["AUCTION_PRICE": "3.5", "AUCTION_ID": "a b&c", "AUCTION_LOSS": AuctionMacros.audit])

    @Test func macros_areReplacedAsTheyAre_orEncodedB64_andTheRestLeftAsWrittenAndNamed() {
        let (text, left) = Self.macros.expand("p=${AUCTION_PRICE}&q=${AUCTION_PRICE:B64}&r=${AUCTION_PRICE:b64}&id=${AUCTION_ID}&l=${AUCTION_LOSS}")
        #expect(text == "p=3.5&q=My41&r=My41&id=a b&c&l=AUDIT", "the value as it is, without regard for syntax: \(text)")
        #expect(left.isEmpty)
        let (other, named) = Self.macros.expand("x=${AUCTION_PRICE:OXCRYPT}&y=${AUCTION_NEW}&z=${OTHER}&w=${AUCTION_PRICE:OXCRYPT}&v=${unterminated")
        #expect(other == "x=${AUCTION_PRICE:OXCRYPT}&y=${AUCTION_NEW}&z=${OTHER}&w=${AUCTION_PRICE:OXCRYPT}&v=${unterminated")
        #expect(named == ["${AUCTION_PRICE:OXCRYPT}", "${AUCTION_NEW}"], "an encoding vplay does not apply and an unknown auction macro, each once")
    }

    @Test func aMacroKept_isLeftForLater_unnamed() {
        let macros = AuctionMacros(values: ["AUCTION_PRICE": "1", "AUCTION_IMP_TS": "5"])
        let (text, left) = macros.expand("p=${AUCTION_PRICE}&t=${AUCTION_IMP_TS}", keeping: ["AUCTION_IMP_TS"])
        #expect(text == "p=1&t=${AUCTION_IMP_TS}" && left.isEmpty)
    }

    @Test func prices_areWrittenAsDecimalsWithoutATrailingZero() {
        #expect(AuctionMacros.decimal(3) == "3")
        #expect(AuctionMacros.decimal(4.2) == "4.2")
        #expect(AuctionMacros.decimal(0.5) == "0.5")
        #expect(BidSource.Price(parsing: "2.10") == .given("2.10"))
        #expect(BidSource.Price(parsing: "audit") == .audit)
        #expect(BidSource.Price(parsing: "-1") == nil && BidSource.Price(parsing: "1e3") == nil && BidSource.Price(parsing: "abc") == nil)
    }

    static func document(_ json: String) throws -> OpenRTBDocument {
        try OpenRTBDocument.read(Data(json.utf8)).get()
    }

    @Test func theHighestBid_wins_itsMacrosFilledFromTheResponseAndThePrice() throws {
        let document = try Self.document("""
            {"id":"resp","bidid":"B","cur":"EUR","seatbid":[
              {"seat":"s1","bid":[{"id":"low","impid":"1","price":2,"adm":"<VAST/>","burl":"http://x/b?p=${AUCTION_PRICE}"}]},
              {"seat":"s2","bid":[{"id":"high","impid":"1","price":4,"adid":"ad9","adm":"<VAST>${AUCTION_PRICE}</VAST>",
                "nurl":"http://x/w?a=${AUCTION_ID}&i=${AUCTION_IMP_ID}&s=${AUCTION_SEAT_ID}&d=${AUCTION_AD_ID}&c=${AUCTION_CURRENCY}&t=${AUCTION_IMP_TS}",
                "burl":" http://x/b?p=${AUCTION_PRICE}&m=${AUCTION_MBR}&b=${AUCTION_BID_ID}&w=${AUCTION_MIN_TO_WIN}&q=${AUCTION_MULTIPLIER} ",
                "lurl":"http://x/l?r=${AUCTION_LOSS}"}]},
              {"seat":"s3","bid":[{"id":"tie","impid":"1","price":4,"adm":"<VAST/>"}]}]}
            """)
        let win = try OpenRTBWin.choose(from: document, price: .given("3"), now: 1_700_000_000_123).get()
        #expect(win.bid.id == "high" && win.seat == "s2", "the highest; of equal ones, the first")
        #expect(win.markup == "<VAST>3</VAST>")
        #expect(win.winNotice == "http://x/w?a=resp&i=1&s=s2&d=ad9&c=EUR&t=${AUCTION_IMP_TS}", "filled when it fires")
        #expect(win.billingNotice == "http://x/b?p=3&m=0.75&b=B&w=AUDIT&q=1", "trimmed; MBR = clearing / bid; the minimum to win is not known")
        #expect(win.notes.map(\.rule) == ["choice"], "\(win.notes.map(\.text))")

        let firstPrice = try OpenRTBWin.choose(from: document, price: .bid, now: 0).get()
        #expect(firstPrice.billingNotice?.hasPrefix("http://x/b?p=4&m=1&") == true)
        let audit = try OpenRTBWin.choose(from: document, price: .audit, now: 0).get()
        #expect(audit.billingNotice?.hasPrefix("http://x/b?p=AUDIT&m=AUDIT&") == true)
    }

    @Test func aPair_fillsTheAuctionFromTheRequest_andSaysWhereTheBidDoesNotAnswerIt() throws {
        let pair = try Self.document("""
            {"request":{"id":"req","imp":[{"id":"1","video":{"mimes":["video/mp4"]},"qty":{"multiplier":2}},{"id":"2","banner":{}}]},
             "response":{"id":"req","seatbid":[{"bid":[{"impid":"1","price":1,"adm":"<VAST/>","nurl":"http://x/?a=${AUCTION_ID}&q=${AUCTION_MULTIPLIER}"}]}]}}
            """)
        let win = try OpenRTBWin.choose(from: pair, price: .bid, now: 0).get()
        #expect(win.winNotice == "http://x/?a=req&q=2")
        #expect(win.notes.isEmpty)
        let banner = try Self.document("""
            {"bidRequest":{"id":"req","imp":[{"id":"2","banner":{}}]},
             "bidResponse":{"id":"other","seatbid":[{"bid":[{"impid":"2","price":1,"adm":"<VAST/>"}]}]}}
            """)
        let mismatched = try OpenRTBWin.choose(from: banner, price: .bid, now: 0).get()
        #expect(mismatched.notes.map(\.rule) == ["mismatch", "mismatch"], "\(mismatched.notes.map(\.text))")
        #expect(mismatched.notes.contains { $0.text.contains("no video object") })
    }

    @Test func noBid_is303WithItsReason_noMarkup300_andAnUnreadableResponse300() throws {
        let none = OpenRTBWin.choose(from: try Self.document(#"{"id":"x","nbr":2}"#), price: .bid, now: 0)
        #expect(throws: VASTError.self) { try none.get() }
        if case let .failure(error) = none {
            #expect(error.code == .noAdAfterWrapper && error.message == "bid response: no bid (nbr 2: invalid request)")
        }
        let bare = OpenRTBWin.choose(from: try Self.document(#"{"seatbid":[{"bid":[{"price":1,"adm":"  "}]}]}"#), price: .bid, now: 0)
        if case let .failure(error) = bare { #expect(error.code == .wrapperGeneral && error.message.contains("neither adm nor nurl")) } else { Issue.record("\(bare)") }
        for (text, says) in [("nope", "not a JSON object"), ("[1]", "not a JSON object"), (#"{"seatbid":[{"bid":[{"price":"a"}]}]}"#, "seatbid[0].bid[0].price is not a number")] {
            let read = OpenRTBDocument.read(Data(text.utf8))
            if case let .failure(error) = read { #expect(error.code == .wrapperGeneral && error.message.contains(says), "\(error.message)") } else { Issue.record("\(text)") }
        }
        let deep = OpenRTBDocument.read(Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        if case let .failure(error) = deep { #expect(error.message.contains("nested more than 32 deep")) } else { Issue.record("read") }
        let huge = OpenRTBDocument.read(Data(repeating: 0x20, count: OpenRTBDocument.maxBytes + 1))
        if case let .failure(error) = huge { #expect(error.message.contains("more than")) } else { Issue.record("read") }
    }
}
