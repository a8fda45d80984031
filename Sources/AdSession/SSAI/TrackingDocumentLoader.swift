import Foundation
import VAST

/// Fetches a tracking document through the session's own fetcher stack (the named file, `--map`, the simulated
/// network, a bundle's documents; only http(s) URLs the policy allows), with the first tag request's timeout, and
/// reads it as a tracking document.
struct TrackingDocumentLoader {
    let configuration: SessionConfiguration
    let environment: SessionEnvironment

    /// The document's URL (a file's is its file URL) and the fetcher that reads it.
    var source: (url: URL, fetcher: any AdTagFetcher) {
        let source = TagLoader(configuration: configuration, environment: environment).source()
        return (source.tagURL, source.fetcher)
    }

    /// The document, or why it cannot be played.
    func load(_ url: URL, fetcher: any AdTagFetcher) async -> Result<TrackingDocument, TrackingDocumentError> {
        let timeout = min(configuration.resolver.firstRequestTimeout, configuration.resolver.resolutionTimeout)
        switch await TimeoutRace.fetch(fetcher, url, timeout: timeout, clock: environment.networkClock) {
        case let .failure(error): return .failure(TrackingDocumentError("the tracking document could not be fetched: \(error.message)"))
        case let .success(fetched):
            guard fetched.data.count <= configuration.resolver.parserLimits.maxBytes else {
                return .failure(TrackingDocumentError("the tracking document is larger than \(configuration.resolver.parserLimits.maxBytes) bytes"))
            }
            // A DASH manifest carries its SVTA2053 signalling in an EventStream: the ads stitched into it, as a document.
            if DASHSignaling.isManifest(fetched.data) {
                return DASHSignaling.read(fetched.data, limits: configuration.resolver.parserLimits)
            }
            return TrackingDocument.read(fetched.data)
        }
    }

    /// A poll: the document asked for again, with MediaTailor's `nextToken` when the last answer had one.
    func poll(_ url: URL, token: String?) async -> Result<TrackingDocument, TrackingDocumentError> {
        var target = url
        if let token, url.scheme == "http" || url.scheme == "https", var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.queryItems = (components.queryItems ?? []).filter { $0.name != "nextToken" } + [URLQueryItem(name: "nextToken", value: token)]
            target = components.url ?? url
        }
        return await load(target, fetcher: source.fetcher)
    }
}
