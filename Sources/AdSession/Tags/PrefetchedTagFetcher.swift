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

extension SessionEnvironment {
    /// This environment with `fetched` (a document already fetched from `url`, or why it was not, in `elapsed`)
    /// answering the resolver's first request for `url`, its time the hop's. Only for http(s): a file tag is read
    /// again, which asks no server.
    func answering(_ url: URL, with fetched: Result<FetchedTag, VASTError>, elapsed: Duration) -> SessionEnvironment {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return self }
        let answer = fetched.map { tag in
            var tag = tag
            tag.recordedElapsed = tag.recordedElapsed ?? elapsed
            return tag
        }.mapError { error in
            var error = error
            error.recordedElapsed = elapsed
            return error
        }
        var environment = self
        environment.tagFetcher = PrefetchedTagFetcher(url: url, answer: answer, next: tagFetcher)
        return environment
    }
}
