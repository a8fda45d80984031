import Foundation
import VAST

/// Answers the URLs a bundle recorded with what was recorded; asks `next` for any other.
struct ReplayTagFetcher: AdTagFetcher {
    let documents: [String: RecordedTag]
    let next: any AdTagFetcher

    init(_ documents: [RecordedTag], next: any AdTagFetcher) {
        self.documents = Dictionary(documents.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        self.next = next
    }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        if let document = documents[url.absoluteString] { return document.fetched }
        return try await next.fetch(url, timeout: timeout)
    }
}
