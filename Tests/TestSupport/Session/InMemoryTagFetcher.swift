import Foundation
import VAST

/// A dictionary of canned responses keyed by URL string, for tests and demos. Records every request.
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

    public init(responses: [String: Response] = [:]) {
        self.responses = responses
    }

    /// Convenience: URL string → XML text.
    public init(xml: [String: String]) {
        self.responses = xml.mapValues { .body(Data($0.utf8)) }
    }

    /// Adds or replaces a response.
    public func set(_ response: Response, for url: String) {
        responses[url] = response
    }

    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        requestedURLs.append(url)
        switch responses[url.absoluteString] {
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
