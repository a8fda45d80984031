import Foundation
import VAST

/// Answers the session's request for its tag when the tag is a bid response (`--bid`): the response is fetched
/// through `next` (the named file, `--map`, the simulated network, a bundle), read, its winning bid chosen
/// (`OpenRTBWin`), and the bid's markup is the answer: `adm`, or what `nurl` answers when there is none (that request
/// is the win notice too). Read once per `BidSource`: a session that looks at its document first (VMAP or VAST?)
/// and then resolves it, or a fleet, asks the bidder's server once. Any other URL goes to `next`.
struct BidTagFetcher: AdTagFetcher {
    let bid: BidSource
    let url: URL
    let next: any AdTagFetcher
    /// `${AUCTION_IMP_TS}`: ms since 1970 when the markup is read.
    let now: Int64

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        guard url.absoluteString == self.url.absoluteString else { return try await next.fetch(url, timeout: timeout) }
        if let read = bid.read.withLock({ $0 }) { return try read.markup.get() }
        let outcome: Result<OpenRTBWin, VASTError>
        do {
            let response = try await next.fetch(url, timeout: timeout)
            outcome = OpenRTBDocument.read(response.data).flatMap { OpenRTBWin.choose(from: $0, price: bid.price, now: now) }
        } catch let error as VASTError {
            outcome = .failure(error)
        }
        let markup: Result<FetchedTag, VASTError>
        do {
            markup = .success(try await self.markup(outcome, timeout: timeout))
        } catch let error as VASTError {
            markup = .failure(error)
        }
        // The first read stands: a session and its fleet see one bid.
        let read = bid.read.withLock { read in
            read = read ?? (try? outcome.get(), markup)
            return read!
        }
        return try read.markup.get()
    }

    /// The markup of the winning bid: `adm`, or fetched from `nurl`.
    private func markup(_ outcome: Result<OpenRTBWin, VASTError>, timeout: Duration) async throws -> FetchedTag {
        let win = try outcome.get()
        if let markup = win.markup { return FetchedTag(data: Data(markup.utf8), finalURL: nil) }
        guard let notice = win.winNotice, let nurl = URL(string: notice), let scheme = nurl.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw VASTError(.wrapperGeneral, "bid response: the bid has no adm and its nurl \(String((win.winNotice ?? "").prefix(200))) is not an http(s) URL")
        }
        var fetched = try await next.fetch(nurl, timeout: timeout)
        fetched.finalURL = fetched.finalURL ?? nurl
        return fetched
    }
}
