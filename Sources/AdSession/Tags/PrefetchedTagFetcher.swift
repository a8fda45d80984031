import Foundation
import Primitives
import VAST

/// Answers the first request for `url` with what was fetched for it already (a session that looked at its tag before
/// knowing whether it is VAST or VMAP), so the ad server is asked once; any other request, and a second one for
/// `url`, goes to `next`.
struct PrefetchedTagFetcher: AdTagFetcher {
    let url: String
    private let answer: Locked<Result<FetchedTag, VASTError>?>
    let next: any AdTagFetcher

    init(url: URL, answer: Result<FetchedTag, VASTError>, next: any AdTagFetcher) {
        self.url = url.absoluteString
        self.answer = Locked(answer)
        self.next = next
    }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        if url.absoluteString == self.url, let answer = answer.withLock({ value in defer { value = nil }; return value }) {
            return try answer.get()
        }
        return try await next.fetch(url, timeout: timeout)
    }
}
