import Findings
import Foundation
import Networking

/// Following one wrapper: the checks before its `VASTAdTagURI` is requested (depth, scheme, loops, the request and
/// time budgets), the fetch, the parse and which of the target's ads are resolved next.
extension VASTResolver {
    func follow(_ wrapper: Wrapper, of ad: Ad, tagURL: String?, chain: [WrapperLink], visited: [String],
                        topLevel: TopLevel, state: inout State) async {
        let link = WrapperLink(depth: chain.count + 1, ad: ad, wrapper: wrapper, tagURL: tagURL)
        let chain = chain + [link]
        let rawURI = wrapper.vastAdTagURI
        let uri = URLTemplate.escapingInvalidCharacters(
            configuration.tagURLTransform(Self.fillingBlockedAdCategories(rawURI, own: configuration.blockedAdCategories,
                                                                          chain: chain)))
        func refuse(_ code: VASTErrorCode, _ message: String) {
            fail(code, message, chain: chain, topLevel: topLevel, state: &state)
            state.hops.append(ResolutionHop(depth: link.depth, url: uri,
                                            outcome: .refused(VASTError(code, message)), elapsed: .zero,
                                            adSystems: []))
        }
        if link.depth > configuration.maxWrapperDepth {
            return refuse(.wrapperLimit, "wrapper \(link.depth) exceeds the limit of \(configuration.maxWrapperDepth) wrappers")
        }
        let url: URL
        do { url = try RequestURL.check(uri).url } catch {
            // Not absolute http(s), or one no client can request (a port beyond 65535, no host, …): never fetched.
            return refuse(.wrapperGeneral, "VASTAdTagURI \"\(uri.prefix(2048))\" cannot be requested (\(error)); not requested")
        }
        // Keyed on the URI as written: after `tagURLTransform` a fresh [CACHEBUSTING] would make every hop look new.
        if visited.contains(rawURI) {
            return refuse(.wrapperGeneral, "wrapper loop: \(rawURI) was already requested in this chain")
        }
        if state.requests >= configuration.maxRequests {
            return refuse(.wrapperLimit, "the budget of \(configuration.maxRequests) requests per resolution is spent (wrapper fan-out?); not requested")
        }
        let remaining = configuration.resolutionTimeout - state.spent
        if remaining <= .zero {
            return refuse(.wrapperTimeout, "the resolution's \(configuration.resolutionTimeout) are spent; not requested")
        }
        let (fetched, elapsedTime) = await timedFetch(url, timeout: min(configuration.wrapperTimeout, remaining), state: &state)
        let fetchedData: Data
        let responseURL: String
        switch fetched {
        case .failure(let error):
            state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: .failed(error),
                                            elapsed: elapsedTime, adSystems: []))
            return fail(error.code, error.message, chain: chain, topLevel: topLevel, state: &state)
        case .success(let tag):
            fetchedData = tag.data
            responseURL = tag.finalURL?.absoluteString ?? url.absoluteString
        }
        let document: VASTDocument
        var parseWarnings: [VASTWarning] = []
        do {
            document = try VASTParser(limits: configuration.parserLimits).parse(fetchedData, tagURL: url.absoluteString,
                                                                                warnings: &parseWarnings)
        } catch {
            state.addWarnings(parseWarnings, hop: link.depth)
            failParse(error, link: link, url: url, elapsed: elapsedTime, chain: chain, topLevel: topLevel, state: &state)
            return
        }
        state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString,
                                        outcome: .vast(adCount: document.ads.count), elapsed: elapsedTime,
                                        adSystems: adSystems(document)))
        state.addWarnings(document.warnings, hop: link.depth)
        recordInvalidAds(document, chain: chain, depth: link.depth, tagURL: url.absoluteString, topLevel: topLevel,
                         state: &state)

        let candidates = Self.candidates(of: document, wrapper: wrapper, hop: link.depth, warnings: &state.warnings)
        for candidate in candidates {
            if case .wrapper(let next) = candidate.content, !wrapper.followsAdditionalWrappers {
                let nextLink = WrapperLink(depth: link.depth + 1, ad: candidate, wrapper: next, tagURL: url.absoluteString)
                fail(.wrapperGeneral, "followAdditionalWrappers is false but the target is another wrapper",
                     chain: chain + [nextLink], followed: chain, topLevel: topLevel, state: &state)
                continue
            }
            await resolve(ad: candidate, tagURL: url.absoluteString, responseURL: responseURL, chain: chain,
                          visited: visited + [rawURI], topLevel: topLevel, state: &state)
        }
    }

    /// `[BLOCKEDADCATEGORIES]` (or `%%BLOCKEDADCATEGORIES%%`) in a wrapper's `VASTAdTagURI`, filled before
    /// `tagURLTransform`: the player's `own` codes, then the `<BlockedAdCategories>` codes of every wrapper of `chain`
    /// (this one included), outermost first, each once, encoded as a VAST 4.x list (`IAB25,IAB26-3`). The IAB macro
    /// list says the values "must be taken from" the wrappers' BlockedAdCategories; when neither the player nor the
    /// chain blocks anything the value is known, an empty list, not `-1`.
    static func fillingBlockedAdCategories(_ uri: String, own: [String], chain: [WrapperLink]) -> String {
        let tokens = ["[BLOCKEDADCATEGORIES]", "%%BLOCKEDADCATEGORIES%%"]
        guard tokens.contains(where: uri.contains) else { return uri }
        var seen = Set<String>()
        let codes = (own + chain.flatMap { $0.wrapper.blockedAdCategories.map(\.code) })
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        let value = PercentEncoding.list(codes)
        return tokens.reduce(uri) { $0.replacingOccurrences(of: $1, with: value) }
    }

    /// Records a wrapper target that did not parse as VAST, with the code the spec gives each case.
    private func failParse(_ error: VASTError, link: WrapperLink, url: URL, elapsed elapsedTime: Duration, chain: [WrapperLink],
                           topLevel: TopLevel, state: inout State) {
        let rootErrors = Self.resourced(error.errorURLs, depth: link.depth, tagURL: url.absoluteString)
        let outcome: ResolutionHop.Outcome = error.code == .noAdAfterWrapper ? .noAd : .failed(error)
        state.hops.append(ResolutionHop(depth: link.depth, url: url.absoluteString, outcome: outcome,
                                        elapsed: elapsedTime, adSystems: []))
        switch error.code {
        case .noAdAfterWrapper:
            fail(.noAdAfterWrapper, "the wrapper's target has no ad", chain: chain, extra: rootErrors,
                 topLevel: topLevel, state: &state)
        case .schemaValidation where error.message.hasPrefix(DocumentBuilder.notVASTMessagePrefix):
            fail(.wrapperTimeout, "the wrapper's target is not VAST: \(error.message)", chain: chain,
                 topLevel: topLevel, state: &state)
        case .xmlParse:
            fail(.xmlParse, "the wrapper's target is not well-formed XML: \(error.message)", chain: chain,
                 topLevel: topLevel, state: &state)
        default:
            fail(error.code, error.message, chain: chain, extra: rootErrors, topLevel: topLevel, state: &state)
        }
    }

    /// The target's ads to resolve, in play order; with `allowMultipleAds="false"` only the first stand-alone ad
    /// (else the first pod ad), with a warning for what is ignored.
    static func candidates(of document: VASTDocument, wrapper: Wrapper, hop: Int, warnings: inout [VASTWarning]) -> [Ad] {
        var candidates = document.adsInPlayOrder
        if !wrapper.allowsMultipleAds {
            if let first = document.buffetAds.first {
                candidates = [first]
            } else if let first = document.podAds.first {
                candidates = [first]
                if document.ads.count > 1 {
                    warnings.append(VASTWarning(.resolution, .resolutionDroppedAds,
                        "allowMultipleAds is false but the target holds only pod ads; the first of \(document.ads.count) is used",
                        path: "hop \(hop)"))
                }
            }
            if document.ads.count > candidates.count {
                warnings.append(VASTWarning(.resolution, .resolutionDroppedAds,
                    "allowMultipleAds is false: \(document.ads.count - candidates.count) more ad(s) of the target ignored",
                    path: "hop \(hop)"))
            }
        }
        return candidates
    }
}
