import Foundation

/// Follows wrapper chains to InLine ads and merges them (see `ResolvedAd` for the merge rules).
///
/// Error codes (the `<Error>` URLs of every wrapper of the chain get the code; see `ResolutionFailure`):
/// - **300** a `VASTAdTagURI` that is not an absolute `http`/`https` URL (a `file:` URI is refused before any
///   fetcher is called, so no local file is read); a **loop** (a chain requesting a URL it already requested);
///   a wrapper received although the previous wrapper said `followAdditionalWrappers="false"`.
///   A loop is reported as 300 rather than 302 because it is a trafficking mistake, not a long chain: 302 tells
///   ad ops "your chain is too long, shorten it", while a loop can never succeed at any limit. It is detected
///   before the request, so it costs no fetch.
/// - **301** the fetch failed, timed out (the resolver enforces the timeout itself on its clock), or the response
///   is not VAST (not XML, wrong root).
/// - **302** more than `maxWrapperDepth` wrappers: the wrapper that would exceed it is not followed.
/// - **303** the chain ends in a no-ad response (the response's root `<Error>` URLs are fired too), or
///   `allowMultipleAds="false"` leaves no usable ad.
/// - **101/102** a response whose ads are all broken / of an unsupported version.
///
/// `allowMultipleAds="false"` (the default): only the first stand-alone ad of the wrapper's target is used; if the
/// target holds only pod ads, the first in sequence order is used with a warning (strictly the spec allows none,
/// but IAB's own samples wrap single ads that carry `sequence="1"`). `true`: every ad is used, pods first.
/// `fallbackOnNoAd` is recorded on the failure and honoured by `VASTResolution.defaultAd`.
///
/// Requests are made one at a time, in play order, so the hop log is deterministic.
public struct VASTResolver: Sendable {
    /// Loads tags.
    public var fetcher: any AdTagFetcher
    /// Measures hop times and runs the timeouts.
    public var clock: any Clock<Duration>
    /// Limits and timeouts.
    public var configuration: ResolverConfiguration

    public init(fetcher: any AdTagFetcher, clock: any Clock<Duration>, configuration: ResolverConfiguration = .init()) {
        self.fetcher = fetcher
        self.clock = clock
        self.configuration = configuration
    }

    /// Fetches the tag at `url` (with `firstRequestTimeout`) and resolves it. The first URL may be any scheme the
    /// fetcher accepts (e.g. the `file:` tag the user named through `FileTagFetcher`); wrapper URIs must be http(s).
    public func resolve(tagURL url: URL) async -> VASTResolution {
        var state = State()
        let (fetched, elapsed) = await timedFetch(url, timeout: configuration.firstRequestTimeout)
        switch fetched {
        case .failure(let error):
            state.hops.append(ResolutionHop(depth: 0, url: url.absoluteString, outcome: .failed(error),
                                            elapsed: elapsed, adSystems: []))
            return VASTResolution(hops: state.hops, topLevelError: error)
        case .success(let tag):
            return await resolve(data: tag.data, tagURL: url.absoluteString, state: &state, elapsed: elapsed)
        }
    }

    /// Resolves a response the caller already has (e.g. read from a local file). `tagURL` labels it in sources.
    public func resolve(data: Data, tagURL: String? = nil) async -> VASTResolution {
        var state = State()
        return await resolve(data: data, tagURL: tagURL, state: &state, elapsed: .zero)
    }

    /// Resolves an already-parsed document.
    public func resolve(document: VASTDocument, tagURL: String? = nil) async -> VASTResolution {
        var state = State()
        state.addWarnings(document.warnings, hop: 0)
        return await resolveTopLevel(document, tagURL: tagURL, state: &state)
    }

    // MARK: - Internals

    struct State {
        var ads: [ResolvedAd] = []
        var failures: [ResolutionFailure] = []
        var hops: [ResolutionHop] = []
        var warnings: [VASTWarning] = []

        mutating func addWarnings(_ list: [VASTWarning], hop: Int) {
            warnings += list.map { VASTWarning($0.kind, $0.message, path: "hop \(hop): " + ($0.path ?? "")) }
        }
    }

    private func resolve(data: Data, tagURL: String?, state: inout State, elapsed: Duration) async
        -> VASTResolution {
        let parser = VASTParser(limits: configuration.parserLimits)
        let document: VASTDocument
        do {
            document = try parser.parse(data, tagURL: tagURL)
        } catch {
            let outcome: ResolutionHop.Outcome = error.code == .noAdAfterWrapper ? .noAd : .failed(error)
            state.hops.append(ResolutionHop(depth: 0, url: tagURL ?? "(data)", outcome: outcome,
                                            elapsed: elapsed, adSystems: []))
            return VASTResolution(hops: state.hops, warnings: state.warnings, topLevelError: error)
        }
        state.hops.append(ResolutionHop(depth: 0, url: tagURL ?? "(data)", outcome: .vast(adCount: document.ads.count),
                                        elapsed: elapsed, adSystems: adSystems(document)))
        state.addWarnings(document.warnings, hop: 0)
        return await resolveTopLevel(document, tagURL: tagURL, state: &state)
    }

    /// Fetches with the timeout race and measures the time on `clock`.
    private func timedFetch(_ url: URL, timeout: Duration) async -> (Result<FetchedTag, VASTError>, Duration) {
        var result: Result<FetchedTag, VASTError> = .failure(VASTError(.wrapperTimeout, "not fetched"))
        let elapsed = await clock.measure {
            result = await TimeoutRace.fetch(fetcher, url, timeout: timeout, clock: clock)
        }
        return (result, elapsed)
    }

    private func adSystems(_ document: VASTDocument) -> [String] {
        var seen = Set<String>()
        return document.ads.compactMap { $0.adSystem?.name }.filter { seen.insert($0).inserted }
    }

    private func resolveTopLevel(_ document: VASTDocument, tagURL: String?, state: inout State) async -> VASTResolution {
        for ad in document.adsInPlayOrder {
            await resolve(ad: ad, tagURL: tagURL, chain: [], visited: tagURL.map { [$0] } ?? [],
                          topLevel: (ad.sequence, ad.sequence != nil), state: &state)
        }
        return VASTResolution(ads: state.ads, failures: state.failures, hops: state.hops, warnings: state.warnings)
    }

    private func chainErrors(_ chain: [WrapperLink]) -> [SourcedURL] {
        chain.flatMap { link in link.wrapper.errorURLs.map { SourcedURL(url: $0, source: link.source) } }
    }

    private func fail(_ code: VASTErrorCode, _ message: String, chain: [WrapperLink], extra: [SourcedURL] = [],
                      topLevel: (sequence: Int?, isPod: Bool), state: inout State) {
        let error = VASTError(code, message, errorURLs: chainErrors(chain) + extra)
        state.failures.append(ResolutionFailure(error: error, chain: chain, sequence: topLevel.sequence,
                                                fallbackOnNoAd: chain.last?.wrapper.fallbackOnNoAd))
    }

    private func resolve(ad: Ad, tagURL: String?, chain: [WrapperLink], visited: [String],
                         topLevel: (sequence: Int?, isPod: Bool), state: inout State) async {
        switch ad.content {
        case .inLine(let inLine):
            state.ads.append(ResolvedAd(inLineAd: ad, inLine: inLine, wrappers: chain,
                                        topLevelSequence: topLevel.sequence, isPodAd: topLevel.isPod))
        case .wrapper(let wrapper):
            await follow(wrapper, of: ad, tagURL: tagURL, chain: chain, visited: visited, topLevel: topLevel,
                         state: &state)
        }
    }

    private func follow(_ wrapper: Wrapper, of ad: Ad, tagURL: String?, chain: [WrapperLink], visited: [String],
                        topLevel: (sequence: Int?, isPod: Bool), state: inout State) async {
        let link = WrapperLink(depth: chain.count + 1, ad: ad, wrapper: wrapper, tagURL: tagURL)
        let chain = chain + [link]
        let uri = configuration.tagURLTransform(wrapper.vastAdTagURI)
        func refuse(_ code: VASTErrorCode, _ message: String) {
            fail(code, message, chain: chain, topLevel: topLevel, state: &state)
            state.hops.append(ResolutionHop(depth: link.depth, url: uri,
                                            outcome: .refused(VASTError(code, message)), elapsed: .zero,
                                            adSystems: []))
        }
        if link.depth > configuration.maxWrapperDepth {
            return refuse(.wrapperLimit, "wrapper \(link.depth) exceeds the limit of \(configuration.maxWrapperDepth) wrappers")
        }
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            return refuse(.wrapperGeneral, "VASTAdTagURI \"\(uri)\" is not an absolute http(s) URL; not requested")
        }
        if visited.contains(url.absoluteString) {
            return refuse(.wrapperGeneral, "wrapper loop: \(url.absoluteString) was already requested in this chain")
        }
        let (fetched, elapsedTime) = await timedFetch(url, timeout: configuration.wrapperTimeout)
        let fetchedData: Data
        switch fetched {
        case .failure(let error):
            state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: .failed(error),
                                            elapsed: elapsedTime, adSystems: []))
            return fail(.wrapperTimeout, error.message, chain: chain, topLevel: topLevel, state: &state)
        case .success(let tag):
            fetchedData = tag.data
        }
        let document: VASTDocument
        do {
            document = try VASTParser(limits: configuration.parserLimits).parse(fetchedData, tagURL: url.absoluteString)
        } catch {
            switch error.code {
            case .noAdAfterWrapper:
                state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: .noAd,
                                                elapsed: elapsedTime, adSystems: []))
                let rootErrors = error.errorURLs.map {
                    SourcedURL(url: $0.url, id: $0.id, source: .response(depth: link.depth, tagURL: url.absoluteString))
                }
                fail(.noAdAfterWrapper, "the wrapper's target has no ad", chain: chain, extra: rootErrors,
                     topLevel: topLevel, state: &state)
            case .xmlParse,
                 .schemaValidation where error.message.hasPrefix(DocumentBuilder.notVASTMessagePrefix):
                state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: .failed(error),
                                                elapsed: elapsedTime, adSystems: []))
                fail(.wrapperTimeout, "the wrapper's target is not VAST: \(error.message)", chain: chain,
                     topLevel: topLevel, state: &state)
            default:
                state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: .failed(error),
                                                elapsed: elapsedTime, adSystems: []))
                fail(error.code, error.message, chain: chain, topLevel: topLevel, state: &state)
            }
            return
        }
        state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString,
                                        outcome: .vast(adCount: document.ads.count), elapsed: elapsedTime,
                                        adSystems: adSystems(document)))
        state.addWarnings(document.warnings, hop: link.depth)

        var candidates = document.adsInPlayOrder
        if !wrapper.allowsMultipleAds {
            if let first = document.buffetAds.first {
                candidates = [first]
            } else if let first = document.podAds.first {
                candidates = [first]
                if document.ads.count > 1 {
                    state.warnings.append(VASTWarning(.resolution,
                        "allowMultipleAds is false but the target holds only pod ads; the first of \(document.ads.count) is used",
                        path: "hop \(link.depth)"))
                }
            }
            if document.ads.count > candidates.count {
                state.warnings.append(VASTWarning(.resolution,
                    "allowMultipleAds is false: \(document.ads.count - candidates.count) more ad(s) of the target ignored",
                    path: "hop \(link.depth)"))
            }
        }
        for candidate in candidates {
            if case .wrapper(let next) = candidate.content, !wrapper.followsAdditionalWrappers {
                let nextLink = WrapperLink(depth: link.depth + 1, ad: candidate, wrapper: next, tagURL: url.absoluteString)
                fail(.wrapperGeneral, "followAdditionalWrappers is false but the target is another wrapper",
                     chain: chain + [nextLink], topLevel: topLevel, state: &state)
                continue
            }
            await resolve(ad: candidate, tagURL: url.absoluteString, chain: chain,
                          visited: visited + [url.absoluteString], topLevel: topLevel, state: &state)
        }
    }
}
