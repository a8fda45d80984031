import Primitives
import Foundation
import PlayerEngine
import TrackingBeacons
import VAST

/// Loads the tag the user named and resolves its wrapper chain: a local file (read only because the user named it)
/// or an http(s) URL, with `--map` rules in front of the network for offline replay.
struct TagLoader {
    let configuration: SessionConfiguration
    let environment: SessionEnvironment

    /// The tag's URL (a `file:` URL for a local path), the resolved chain, and the resolver (a pod's substitutes
    /// are resolved later with it, on what is left of its budgets).
    func resolve() async -> (tagURL: URL, resolution: VASTResolution, resolver: VASTResolver) {
        let (tagURL, fetcher) = source()
        let resolver = Self.resolverConfiguration(configuration, now: configuration.now ?? environment.wallClock())
        let vastResolver = VASTResolver(fetcher: fetcher, clock: environment.networkClock, configuration: resolver)
        let resolution = await vastResolver.resolve(tagURL: tagURL)
        return (tagURL, resolution, vastResolver)
    }

    /// The tag's URL (a `file:` URL for a local path) and the fetcher every document of the session comes through:
    /// the named file, `--map` rules, the simulated network, a bundle's documents first, the bundle's recorder.
    func source() -> (tagURL: URL, fetcher: any AdTagFetcher) {
        let tagURL: URL
        var fetcher: any AdTagFetcher
        let remote = URLMapFetcher(mappings: configuration.mappings, next: environment.tagFetcher)
        // Under `--network`, every tag that comes over the network (or stands for one, under `--map`) is timed by the
        // profile; the tag file the user named is read from disk.
        let mapped: any AdTagFetcher = configuration.network.map { NetworkTagFetcher(next: remote, profile: $0.profile) } ?? remote
        if let url = URL(string: configuration.tag), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            tagURL = url
            fetcher = mapped
        } else {
            let path = configuration.tag.hasPrefix("file:") ? (URL(string: configuration.tag)?.path ?? configuration.tag) : configuration.tag
            let file = URL(fileURLWithPath: path).standardizedFileURL
            // Under `--base`, the file stands in the base folder: its relative URLs resolve there.
            tagURL = configuration.tagBase.map { URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent(file.lastPathComponent).standardizedFileURL } ?? file
            fetcher = FileTagFetcher(fileURL: tagURL, readingFrom: file, next: mapped, maxBytes: configuration.resolver.parserLimits.maxBytes)
        }
        // A bundle's documents first (`--replay`), then every document fetched is kept (`--bundle`).
        if !configuration.replayDocuments.isEmpty { fetcher = ReplayTagFetcher(configuration.replayDocuments, next: fetcher) }
        if let recorder = configuration.tagRecorder { fetcher = RecordingTagFetcher(fetcher, recorder: recorder) }
        // A bid response (`--bid`) stands for the tag: its winning bid's markup answers the tag's URL.
        if let bid = configuration.bid { fetcher = BidTagFetcher(bid: bid, url: tagURL, next: fetcher, now: configuration.now ?? environment.wallClock()) }
        return (tagURL, fetcher)
    }

    /// The session's resolver settings, completed from the rest of the session: playability is judged with the
    /// session's media criteria, and wrapper URIs get their macros expanded (after any transform already set).
    static func resolverConfiguration(_ configuration: SessionConfiguration, now: Int64) -> ResolverConfiguration {
        var resolver = configuration.resolver
        resolver.mediaCriteria = configuration.mediaCriteria
        // `--media-file` picks a file of the ad that plays; it does not make ads unplayable (a position the ad does
        // not have is the user's mistake, a usage error, never a 403 fired to the ad server: `AdPreparation`).
        resolver.mediaCriteria.forcedFile = nil
        resolver.playsPods = configuration.pod == .all
        // `--macro BLOCKEDADCATEGORIES=…` is the player's own list; the resolver adds the chain's.
        resolver.blockedAdCategories = (configuration.deviceMacros["BLOCKEDADCATEGORIES"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let expand = tagURLMacroExpansion(configuration, now: now)
        let earlier = configuration.resolver.tagURLTransform
        resolver.tagURLTransform = { expand(earlier($0)) }
        return resolver
    }

    /// Expands the macros of a `VASTAdTagURI` before it is requested (vast-client-js requests them literally, its
    /// issue #331): `[CACHEBUSTING]` from its own generator seeded with `--seed` (a separate stream, so beacon URLs
    /// stay as they were), `[TIMESTAMP]` the session's start (`--now`, else the environment's wall clock once), and the device
    /// macros (`--macro`). Values are percent-encoded; unknown macros stay as written. The resolver detects loops on
    /// the URI before this expansion.
    static func tagURLMacroExpansion(_ configuration: SessionConfiguration, now: Int64) -> @Sendable (String) -> String {
        let cacheBuster = Locked(CacheBuster(seed: configuration.seed ^ 0x7461_6755_524C))  // "tagURL"
        let device = configuration.requestMacros
        return { uri in
            let buster = cacheBuster.withLock { $0.next() }
            var values = MacroContext(timestampMilliseconds: now, cacheBuster: buster, extra: device).values
            values["PLAYERSTATE"] = nil  // nothing is playing yet: leave it to the ad server
            return MacroExpander().expand(uri, values: values).url
        }
    }

    /// Where the InLine of `ad` was fetched from (after redirects): the base for relative MediaFile URLs.
    func inLineTagURL(of ad: ResolvedAd, tagURL: URL) -> String {
        ad.inLineResponseURL ?? tagURL.absoluteString
    }
}
