import Foundation
import XMLReading

/// Offline replay: URLs matching a `URLMapping` prefix are read from the mapped local directory; others go to
/// `next` (e.g. the HTTP fetcher) or fail with 301. The longest matching prefix wins.
public struct URLMapFetcher: AdTagFetcher {
    /// The rules.
    public let mappings: [URLMapping]
    /// Where unmapped URLs go.
    public let next: (any AdTagFetcher)?
    /// Read cap in bytes (default: the parser's default input cap).
    public let maxBytes: Int

    public init(mappings: [URLMapping], next: (any AdTagFetcher)? = nil,
                maxBytes: Int = ParserLimits.default.maxBytes) {
        self.mappings = mappings.sorted { $0.prefix.count > $1.prefix.count }
        self.next = next
        self.maxBytes = maxBytes
    }

    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        for mapping in mappings where url.absoluteString.hasPrefix(mapping.prefix) {
            guard let file = mapping.localFile(for: url) else {
                throw VASTError(.wrapperTimeout, "\(url.absoluteString) maps outside \(mapping.directory.path); refused")
            }
            return FetchedTag(data: try LocalFileReader.read(file, maxBytes: maxBytes))
        }
        if let next { return try await next.fetch(url, timeout: timeout) }
        throw VASTError(.wrapperTimeout, "no --map rule for \(url.absoluteString)")
    }
}
