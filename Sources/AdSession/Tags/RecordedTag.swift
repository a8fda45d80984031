import Foundation
import Primitives
import VAST

/// One tag document as a session fetched it: what a run bundle carries so that `--replay` resolves the same chain
/// without the ad server (tags are often private, and ad servers answer differently each time).
public struct RecordedTag: Sendable, Codable, Hashable {
    /// The URL asked for (macros expanded), as the resolver asked it.
    public var url: String
    /// Where the body finally came from, after redirects.
    public var finalURL: String?
    public var contentType: String?
    public var allowOrigin: String?
    /// The body as text when it is UTF-8 (a tag almost always is), else nil and `bodyBase64`.
    public var body: String?
    public var bodyBase64: String?
    /// How long the fetch took, in nanoseconds, as the resolver measured it (the chain's `time`).
    public var elapsedNanoseconds: Int64?

    public init(url: URL, tag: FetchedTag) {
        self.url = url.absoluteString
        finalURL = tag.finalURL?.absoluteString
        contentType = tag.served?.contentType
        allowOrigin = tag.served?.allowOrigin
        if let text = String(data: tag.data, encoding: .utf8) { body = text } else { bodyBase64 = tag.data.base64EncodedString() }
    }

    /// The document as the resolver first received it.
    public var fetched: FetchedTag {
        let data = body.map { Data($0.utf8) } ?? bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data()
        let served = contentType == nil && allowOrigin == nil ? nil : FetchedTag.Served(contentType: contentType, allowOrigin: allowOrigin)
        return FetchedTag(data: data, finalURL: finalURL.flatMap(URL.init(string:)), served: served,
                          recordedElapsed: elapsedNanoseconds.map { .nanoseconds($0) })
    }
}
