import Foundation

/// The body of a fetched VAST tag.
public struct FetchedTag: Sendable, Hashable {
    /// The response body.
    public var data: Data
    /// The URL the body finally came from (after HTTP redirects), when it differs from the requested one.
    public var finalURL: URL?

    public init(data: Data, finalURL: URL? = nil) {
        self.data = data
        self.finalURL = finalURL
    }
}
