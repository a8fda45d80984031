import Foundation

/// Loads a VAST tag. The resolver calls it for the tag the user named and for every wrapper's `VASTAdTagURI`.
///
/// An HTTP implementation should honour `timeout` (the per-hop limit) and task cancellation; the resolver also
/// enforces `timeout` itself, so a fetcher that hangs still yields error 301 in time. Throw any error on failure:
/// a `VASTError` keeps its code and message (e.g. 100 for a body over the size cap, 301 for HTTP 404); any other
/// error is reported as 301.
public protocol AdTagFetcher: Sendable {
    /// Fetches `url`, giving up after `timeout`.
    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag
}
