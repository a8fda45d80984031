import Foundation
import Primitives
import VAST

/// A dictionary of canned responses keyed by URL string (with or without its query), for tests and demos. Records
/// every request.
public actor InMemoryTagFetcher: AdTagFetcher {
    /// A canned response.
    public enum Response: Sendable {
        /// Return this body.
        case body(Data)
        /// Fail with this error.
        case failure(VASTError)
        /// Never answer until the calling task is cancelled (then throw `CancellationError`).
        case hang
    }

    private var responses: [String: Response]
    /// Every URL asked for, in order.
    public private(set) var requestedURLs: [URL] = []
    /// Where every URL asked for is also written, for a caller that keeps no reference to the fetcher.
    private let log: Locked<[String]>?

    public init(responses: [String: Response] = [:], log: Locked<[String]>? = nil) {
        self.responses = responses
        self.log = log
    }

    /// Convenience: URL string → XML text.
    public init(xml: [String: String]) {
        self.responses = xml.mapValues { .body(Data($0.utf8)) }
        self.log = nil
    }

    /// Adds or replaces a response.
    public func set(_ response: Response, for url: String) {
        responses[url] = response
    }

    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        requestedURLs.append(url)
        log?.withLock { $0.append(url.absoluteString) }
        // A response for the URL as asked, else for it without its query (a tag URI whose macros expand per request).
        var bare = URLComponents(url: url, resolvingAgainstBaseURL: false)
        bare?.query = nil
        switch responses[url.absoluteString] ?? bare?.string.flatMap({ responses[$0] }) {
        case .body(let data)?:
            return FetchedTag(data: data)
        case .failure(let error)?:
            throw error
        case .hang?:
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            for await _ in stream {}  // ends only when the task is cancelled
            withExtendedLifetime(continuation) {}
            throw CancellationError()
        case nil:
            throw VASTError(.wrapperTimeout, "404: no canned response for \(url.absoluteString)")
        }
    }
}
