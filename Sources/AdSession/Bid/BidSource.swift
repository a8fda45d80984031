import Foundation
import Primitives
import VAST

/// `--bid FILE|URL`: the ad comes from an OpenRTB 2.x bid response that won. The session reads the response (once,
/// through its own fetcher: `BidTagFetcher`), plays the markup of its winning bid (`adm`, or what `nurl` answers when
/// there is none), and fires the bid's notices as tracking of their own source (`bid`): the win notice (`nurl`) before
/// the ad, the billing notice (`burl`) when `billing` says; the loss notice (`lurl`) never, since the bid won.
/// Shared by every copy of a configuration: the response is read once for the whole session or fleet.
public final class BidSource: Sendable {
    /// When the billing notice (`burl`) fires: SDKs disagree (prebid-mobile-ios#1059).
    public enum Billing: String, Sendable, CaseIterable, Equatable {
        /// When the markup is rendered: the ad is ready to show (its media open), whether or not it is then shown.
        case render
        /// With the ad's impression (its first frame): the default.
        case impression
        /// When the ad becomes viewable (`viewable`, by the session's viewability rules); never when it does not.
        case viewable
    }

    /// `--price`: the clearing price `${AUCTION_PRICE}` carries.
    public enum Price: Sendable, Equatable {
        /// The bid's own price (a first-price auction: the default).
        case bid
        /// A price given, as written: a decimal in the bid's currency and units.
        case given(String)
        /// `AUDIT`: not known (OpenRTB 2.6 §4.4 best practice for test and ad quality rendering).
        case audit

        /// `--price VALUE`: a non-negative decimal, or `AUDIT`; nil otherwise.
        public init?(parsing text: String) {
            if text.uppercased() == AuctionMacros.audit { self = .audit; return }
            guard let value = Double(text), value.isFinite, value >= 0, text.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
            self = .given(text)
        }
    }

    /// The bid response: a file path, a `file:` URL or an http(s) URL.
    public let location: String
    public let price: Price
    public let billing: Billing
    /// The response once read: the bid chosen (nil when none could be), and the markup as the session's tag (`adm`,
    /// or what `nurl` answered) or why there is none.
    let read = Locked<(win: OpenRTBWin?, markup: Result<FetchedTag, VASTError>)?>(nil)

    public init(location: String, price: Price = .bid, billing: Billing = .impression) {
        self.location = location
        self.price = price
        self.billing = billing
    }

    /// The winning bid, once the response is read; nil before, or when it could not be.
    var won: OpenRTBWin? { read.withLock { $0?.win } }
}
