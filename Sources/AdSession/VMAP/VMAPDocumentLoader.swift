import Foundation
import PlayerEngine
import VAST
import XMLReading

/// Fetches the document a session was given once, through the session's own fetcher (the named file, `--map`, the
/// simulated network, a bundle's documents), and tells a VMAP document from a VAST one by its root element.
struct VMAPDocumentLoader {
    let configuration: SessionConfiguration
    let environment: SessionEnvironment

    enum Loaded {
        /// A VMAP document, read.
        case vmap(VMAPDocument, url: URL)
        /// Not VMAP: what was fetched (or why it was not), for the VAST path to resolve without asking again.
        case vast(url: URL, fetched: Result<FetchedTag, VASTError>, elapsed: Duration)
        /// Given as VMAP and not playable as such.
        case failed(VMAPError, url: URL)
        /// An HLS content playlist's interstitials, as breaks.
        case interstitials(InterstitialBreaks, url: URL)
    }

    /// Fetches the content playlist (`--interstitials`) and reads its interstitials: 1008 or 1007 when it cannot be
    /// fetched, 1002 when it cannot be read as a media playlist with interstitials. A multivariant playlist is
    /// followed to its first variant (interstitials are signalled alike in every media playlist), once.
    func loadInterstitials() async -> Loaded {
        let (url, fetcher) = TagLoader(configuration: configuration, environment: environment).source()
        let timeout = min(configuration.resolver.firstRequestTimeout, configuration.resolver.resolutionTimeout)
        var target = url, followed: String?
        for hop in 0..<2 {
            let fetched: FetchedTag
            switch await TimeoutRace.fetch(fetcher, target, timeout: timeout, clock: environment.networkClock) {
            case let .failure(error): return .failed(Self.retrievalError(error), url: url)
            case let .success(value): fetched = value
            }
            let base = fetched.finalURL ?? target
            let baseText = base.isFileURL ? base.path : base.absoluteString
            if hop == 0, let text = String(data: fetched.data.prefix(HLSPlaylist.maxBytes), encoding: .utf8), HLSPlaylist.isPlaylist(text), HLSPlaylist.isMaster(text),
               let variant = HLSPlaylist.variants(text, base: baseText).first {
                guard let next = Self.variantURL(variant.url, base: base) else {
                    return .failed(VMAPError(.parsing, "the content playlist: its first variant \(variant.url.prefix(200)) is not an http(s) URL or a file of a local playlist"), url: url)
                }
                target = next
                followed = next.absoluteString
                continue
            }
            switch HLSInterstitialReader.read(fetched.data, base: baseText) {
            case let .failure(error): return .failed(VMAPError(.parsing, "the content playlist: \(error.message)"), url: url)
            case let .success(stream): return .interstitials(InterstitialBreaks(stream, variant: followed), url: base)
            }
        }
        return .failed(VMAPError(.parsing, "the content playlist: unreachable"), url: url)
    }

    /// A variant's URL: http(s) from any playlist, a path only from a local one.
    static func variantURL(_ text: String, base: URL) -> URL? {
        if base.isFileURL, !text.contains("://") { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    /// - Parameter requireVMAP: `--vmap`: anything but a VMAP document is an error; otherwise a VAST document (or a
    ///   failed fetch) goes back to the VAST path.
    func load(requireVMAP: Bool) async -> Loaded {
        let (url, fetcher) = TagLoader(configuration: configuration, environment: environment).source()
        let timeout = min(configuration.resolver.firstRequestTimeout, configuration.resolver.resolutionTimeout)
        var fetched: Result<FetchedTag, VASTError> = .failure(VASTError(.wrapperTimeout, "not fetched"))
        let measured = await environment.networkClock.measure {
            fetched = await TimeoutRace.fetch(fetcher, url, timeout: timeout, clock: environment.networkClock)
        }
        let elapsed = (try? fetched.get())?.recordedElapsed ?? measured
        let tag: FetchedTag
        switch fetched {
        case let .failure(error):
            guard requireVMAP else { return .vast(url: url, fetched: fetched, elapsed: elapsed) }
            return .failed(Self.retrievalError(error), url: url)
        case let .success(value): tag = value
        }
        let limits = configuration.resolver.parserLimits
        guard case let .success(read) = SafeXMLReader.read(tag.data, limits: limits, document: "VMAP"), read.root.name == "VMAP" else {
            guard requireVMAP else { return .vast(url: url, fetched: fetched, elapsed: elapsed) }
            if case let .failure(failure) = SafeXMLReader.read(tag.data, limits: limits, document: "VMAP") {
                return .failed(VMAPError(.parsing, failure.message), url: url)
            }
            return .failed(VMAPError(.schema, "the document is not VMAP (its root is not <VMAP>); a VAST tag plays with --vast"), url: url)
        }
        switch VMAPParser.parse(tag.data, limits: limits) {
        case let .success(document): return .vmap(document, url: tag.finalURL ?? url)
        case let .failure(error): return .failed(error, url: url)
        }
    }

    /// A fetch's failure in VMAP's words: 1007 when no answer came in time, 1008 otherwise.
    /// (The resolver's own deadline says "no response within"; the HTTP client's, "timed out".)
    static func retrievalError(_ error: VASTError) -> VMAPError {
        let timedOut = error.message.contains("no response within") || error.message.contains("timed out")
        return timedOut ? VMAPError(.retrievalTimeout, error.message) : VMAPError(.retrieval, error.message)
    }
}
