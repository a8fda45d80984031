import Foundation
import XMLReading

/// Serves exactly one local file: the tag the user named on the command line. Any other URL goes to `next` (or
/// fails with 301). Wrappers can never reach the file system through it: the resolver refuses non-http(s)
/// `VASTAdTagURI`s before calling any fetcher, and this fetcher only answers for its one path.
public struct FileTagFetcher: AdTagFetcher {
    /// The one file served.
    public let fileURL: URL
    /// Where other URLs go.
    public let next: (any AdTagFetcher)?
    /// Read cap in bytes (default: the parser's default input cap).
    public let maxBytes: Int
    /// Where the file is read from: `fileURL` itself, or another file that stands at `fileURL` (`--base`).
    public let source: URL

    public init(fileURL: URL, readingFrom source: URL? = nil, next: (any AdTagFetcher)? = nil, maxBytes: Int = ParserLimits.default.maxBytes) {
        self.fileURL = fileURL.standardizedFileURL
        self.source = (source ?? fileURL).standardizedFileURL
        self.next = next
        self.maxBytes = maxBytes
    }

    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        if url.isFileURL, url.standardizedFileURL.path == fileURL.path {
            return FetchedTag(data: try LocalFileReader.read(source, maxBytes: maxBytes))
        }
        if let next { return try await next.fetch(url, timeout: timeout) }
        throw VASTError(.wrapperTimeout, "\(url.absoluteString) is not the named tag file")
    }
}
