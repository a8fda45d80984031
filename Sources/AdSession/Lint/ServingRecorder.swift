import Findings
import Foundation
import Primitives
import VAST

/// A tag fetcher that passes every fetch through and keeps how each HTTP answer served its tag, for `lint`'s
/// `VPLAY-tag-cors` and `VPLAY-tag-content-type`.
final class ServingRecorder: AdTagFetcher {
    private let inner: any AdTagFetcher
    private let served = Locked<[(url: String, served: FetchedTag.Served)]>([])

    init(_ inner: any AdTagFetcher) { self.inner = inner }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        let tag = try await inner.fetch(url, timeout: timeout)
        if let answer = tag.served { served.withLock { $0.append((url.absoluteString, answer)) } }
        return tag
    }

    /// The findings of every tag served so far, in the order they were fetched.
    func findings(origin: String) -> [Finding] {
        served.withLock { $0 }.flatMap { Self.findings(url: $0.url, served: $0.served, origin: origin) }
    }

    /// A web player on `origin` reads the tag only when the answer allows that origin (`*` or the origin itself);
    /// it parses it only as XML.
    static func findings(url: String, served: FetchedTag.Served, origin: String) -> [Finding] {
        var findings: [Finding] = []
        switch served.allowOrigin?.trimmingCharacters(in: .whitespaces) {
        case nil:
            findings.append(Finding(.tagCORS, "\(url) is served without Access-Control-Allow-Origin: a web player on another origin cannot read it"))
        case "*"?, origin?: break
        case let allowed?:
            findings.append(Finding(.tagCORS, "\(url) allows only \(allowed) to read it (asked from \(origin))"))
        }
        let type = served.contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let type, type.hasSuffix("/xml") || type.hasSuffix("+xml") { return findings }
        findings.append(Finding(.tagContentType, "\(url) is served " + (type.map { "as \($0)" } ?? "without a Content-Type") + "; a tag is XML (text/xml, application/xml)"))
        return findings
    }
}
