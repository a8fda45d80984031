import Foundation
import VAST

/// Loads the tag the user named and resolves its wrapper chain: a local file (read only because the user named it)
/// or an http(s) URL, with `--map` rules in front of the network for offline replay.
struct TagLoader {
    let configuration: SessionConfiguration
    let http: HTTPTagFetcher

    /// The tag's URL (a `file:` URL for a local path) and the resolved chain.
    func resolve() async -> (tagURL: URL, resolution: VASTResolution) {
        let tagURL: URL
        let fetcher: any AdTagFetcher
        let mapped = URLMapFetcher(mappings: configuration.mappings, next: http)
        if let url = URL(string: configuration.tag), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            tagURL = url
            fetcher = mapped
        } else {
            let path = configuration.tag.hasPrefix("file:") ? (URL(string: configuration.tag)?.path ?? configuration.tag) : configuration.tag
            tagURL = URL(fileURLWithPath: path).standardizedFileURL
            fetcher = FileTagFetcher(fileURL: tagURL, next: mapped, maxBytes: configuration.resolver.parserLimits.maxBytes)
        }
        let resolution = await VASTResolver(fetcher: fetcher, clock: ContinuousClock(), configuration: configuration.resolver)
            .resolve(tagURL: tagURL)
        return (tagURL, resolution)
    }

    /// Where the InLine of `ad` was fetched from: the last wrapper's target, or the tag itself.
    func inLineTagURL(of ad: ResolvedAd, tagURL: URL) -> String {
        ad.wrappers.last.map { configuration.resolver.tagURLTransform($0.wrapper.vastAdTagURI) } ?? tagURL.absoluteString
    }
}
