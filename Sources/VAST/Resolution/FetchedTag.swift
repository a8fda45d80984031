import Foundation

/// The body of a fetched VAST tag.
public struct FetchedTag: Sendable, Hashable {
    /// The response body.
    public var data: Data
    /// The URL the body finally came from (after HTTP redirects), when it differs from the requested one.
    public var finalURL: URL?
    /// How an HTTP server served it (its `Content-Type` and `Access-Control-Allow-Origin`); nil for a local file.
    public var served: Served?
    /// How long the fetch took when it was first made, for a document answered again from a run bundle
    /// (`--replay`): the resolver reports and spends this instead of the replay's own near-zero time.
    public var recordedElapsed: Duration?

    /// What an HTTP answer said about the tag beside its body: what a web player's browser checks before it lets the
    /// player read the response.
    public struct Served: Sendable, Hashable {
        /// The `Content-Type` header, as sent; nil when there was none.
        public var contentType: String?
        /// The `Access-Control-Allow-Origin` header, as sent; nil when there was none.
        public var allowOrigin: String?

        public init(contentType: String?, allowOrigin: String?) {
            self.contentType = contentType
            self.allowOrigin = allowOrigin
        }
    }

    public init(data: Data, finalURL: URL? = nil, served: Served? = nil, recordedElapsed: Duration? = nil) {
        self.recordedElapsed = recordedElapsed
        self.data = data
        self.finalURL = finalURL
        self.served = served
    }
}
