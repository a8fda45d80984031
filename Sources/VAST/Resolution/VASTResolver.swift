import Findings
import Foundation

/// Follows wrapper chains to InLine ads, merges them (see `ResolvedAd` for the merge rules) and chooses the ad to
/// play.
///
/// Error codes (the `<Error>` URLs of every wrapper of the chain get the code; see `ResolutionFailure`):
/// - **100** the wrapper's target is not well-formed XML or exceeds a `ParserLimits` limit (the VAST 4.x table's
///   "XML parsing error"; the fetchers report a body over the size cap as 100 too).
/// - **101** the target's ads are all broken (the target's root `<Error>` URLs get it too); a broken `<Ad>` beside
///   good ones gets its own failure, fired to its own and the root `<Error>` URLs.
/// - **102** the target is VAST 1 or a major version above 4.
/// - **300** a `VASTAdTagURI` that is not an absolute `http`/`https` URL (a `file:` URI is refused before any
///   fetcher is called, so no local file is read); a **loop** (a chain requesting a URI it already requested,
///   compared before `tagURLTransform` so cache-busters cannot hide it); a wrapper received although the previous
///   wrapper said `followAdditionalWrappers="false"`.
///   A loop is reported as 300 rather than 302 because it is a trafficking mistake, not a long chain: 302 tells
///   ad ops "your chain is too long, shorten it", while a loop can never succeed at any limit. It is detected
///   before the request, so it costs no fetch.
/// - **301** the fetch failed or timed out (the resolver enforces the timeout itself on its clock), the response is
///   well-formed XML but not VAST (wrong root), or the resolution's overall `resolutionTimeout` is spent.
/// - **302** more than `maxWrapperDepth` wrappers, or the resolution's `maxRequests` budget is spent: the wrapper
///   that would exceed it is not followed.
/// - **303** the chain ends in a no-ad response (the response's root `<Error>` URLs are fired too), or
///   `allowMultipleAds="false"` leaves no usable ad.
/// - **201/200/403/409** an ad that resolved but cannot be played (`ResolvedAd.playabilityError`) and was skipped on
///   the way to the default ad.
///
/// `allowMultipleAds="false"` (the default): only the first stand-alone ad of the wrapper's target is used; if the
/// target holds only pod ads, the first in sequence order is used with a warning (strictly the spec allows none,
/// but IAB's own samples wrap single ads that carry `sequence="1"`). `true`: every ad is used, pods first.
///
/// **Play order and laziness**: top-level pod ads are all resolved (the pod is the list that plays); buffet ads
/// are resolved one by one only while no playable ad has been found, and not at all after a failed wrapper said
/// `fallbackOnNoAd="false"`. The first playable ad (judged with `ResolverConfiguration.mediaCriteria`) becomes
/// `VASTResolution.defaultAd`. Every request counts against `maxRequests` and `resolutionTimeout`, which bound a
/// fan-out of `allowMultipleAds` wrappers.
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
        let timeout = min(configuration.firstRequestTimeout, configuration.resolutionTimeout)
        let (fetched, elapsed) = await timedFetch(url, timeout: timeout, state: &state)
        switch fetched {
        case .failure(let error):
            state.hops.append(ResolutionHop(depth: 0, url: url.absoluteString, outcome: .failed(error),
                                            elapsed: elapsed, adSystems: []))
            return VASTResolution(hops: state.hops, topLevelError: Self.dispatchableOnly(error))
        case .success(let tag):
            return await resolve(data: tag.data, tagURL: url.absoluteString,
                                 responseURL: tag.finalURL?.absoluteString ?? url.absoluteString,
                                 state: &state, elapsed: elapsed)
        }
    }

    /// Resolves a response the caller already has (e.g. read from a local file). `tagURL` labels it in sources.
    public func resolve(data: Data, tagURL: String? = nil) async -> VASTResolution {
        var state = State()
        return await resolve(data: data, tagURL: tagURL, responseURL: tagURL, state: &state, elapsed: .zero)
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
        /// Requests made so far (against `maxRequests`).
        var requests = 0
        /// Time spent in requests so far (against `resolutionTimeout`).
        var spent: Duration = .zero
        /// Index in `ads` of the first playable ad, once found.
        var chosen: Int?

        mutating func addWarnings(_ list: [VASTWarning], hop: Int) {
            warnings += list.map { warning in
                var rehomed = warning
                rehomed.path = "hop \(hop): " + (warning.path ?? "")
                return rehomed
            }
        }
    }

    /// Where a top-level ad sits: its pod `sequence` (nil for a buffet ad).
    typealias TopLevel = (sequence: Int?, isPod: Bool)

    private func resolve(data: Data, tagURL: String?, responseURL: String?, state: inout State, elapsed: Duration) async
        -> VASTResolution {
        let parser = VASTParser(limits: configuration.parserLimits)
        let document: VASTDocument
        var parseWarnings: [VASTWarning] = []
        do {
            document = try parser.parse(data, tagURL: tagURL, warnings: &parseWarnings)
        } catch {
            let outcome: ResolutionHop.Outcome = error.code == .noAdAfterWrapper ? .noAd : .failed(error)
            state.hops.append(ResolutionHop(depth: 0, url: tagURL ?? "(data)", outcome: outcome,
                                            elapsed: elapsed, adSystems: []))
            // The other faults of a document that failed (e.g. its only ad a wrapper without VASTAdTagURI).
            state.addWarnings(parseWarnings, hop: 0)
            return VASTResolution(hops: state.hops, warnings: state.warnings, topLevelError: Self.dispatchableOnly(error))
        }
        state.hops.append(ResolutionHop(depth: 0, url: tagURL ?? "(data)", outcome: .vast(adCount: document.ads.count),
                                        elapsed: elapsed, adSystems: adSystems(document)))
        state.addWarnings(document.warnings, hop: 0)
        return await resolveTopLevel(document, tagURL: tagURL, responseURL: responseURL, state: &state)
    }

    /// Fetches with the timeout race, counts the request and measures its time on `clock`.
    func timedFetch(_ url: URL, timeout: Duration, state: inout State) async -> (Result<FetchedTag, VASTError>, Duration) {
        var result: Result<FetchedTag, VASTError> = .failure(VASTError(.wrapperTimeout, "not fetched"))
        let measured = await clock.measure {
            result = await TimeoutRace.fetch(fetcher, url, timeout: timeout, clock: clock)
        }
        let elapsed = switch result {
        case let .success(tag): tag.recordedElapsed ?? measured
        case let .failure(error): error.recordedElapsed ?? measured
        }
        state.requests += 1
        state.spent += elapsed
        return (result, elapsed)
    }

    func adSystems(_ document: VASTDocument) -> [String] {
        var seen = Set<String>()
        return document.ads.compactMap { $0.adSystem?.name }.filter { seen.insert($0).inserted }
    }

    private func resolveTopLevel(_ document: VASTDocument, tagURL: String?, responseURL: String? = nil,
                                 state: inout State) async -> VASTResolution {
        let responseURL = responseURL ?? tagURL
        recordInvalidAds(document, chain: [], depth: 0, tagURL: tagURL, topLevel: nil, state: &state)
        var buffetBlocked = false
        let ordered = document.adsInPlayOrder
        // A pod of two or more top-level ads plays whole: each pod ad is judged, stand-alone ads wait as substitutes.
        let podMode = configuration.playsPods && document.podAds.count >= 2
        var slots: [PodSlot] = []
        var pending: [PendingStandAloneAd] = []
        func standAlone(after position: Int) -> [PendingStandAloneAd] {
            ordered[position...].filter { $0.sequence == nil }
                .map { PendingStandAloneAd(ad: $0, tagURL: tagURL, responseURL: responseURL) }
        }
        /// Each top-level ad tried: its position in `ordered` and the ads it resolved to.
        var groups: [(position: Int, ads: Range<Int>)] = []
        for (position, ad) in ordered.enumerated() {
            let topLevel: TopLevel = (ad.sequence, ad.sequence != nil)
            if !topLevel.isPod {
                if podMode {
                    pending = standAlone(after: position)
                    break
                }
                // Buffet ads are the fallback: only resolved while nothing playable has been found.
                if state.chosen != nil { break }
                if buffetBlocked {
                    let left = ordered.count - position
                    state.warnings.append(VASTWarning(.resolution, .resolutionDroppedAds,
                        "a failed wrapper said fallbackOnNoAd=\"false\": \(left) buffet ad(s) not used", path: "hop 0"))
                    break
                }
            }
            let firstAd = state.ads.count, firstFailure = state.failures.count
            await resolve(ad: ad, tagURL: tagURL, responseURL: responseURL, chain: [],
                          visited: tagURL.map { [$0] } ?? [], topLevel: topLevel, state: &state)
            if state.failures[firstFailure...].contains(where: { $0.fallbackOnNoAd == false }) { buffetBlocked = true }
            if podMode {
                slots += (firstAd..<state.ads.count).map { podSlot($0, state: &state) }
                if firstAd == state.ads.count {
                    let failure = state.failures[firstFailure...].first
                        ?? ResolutionFailure(error: VASTError(.noAdAfterWrapper, "the pod ad resolved to no ad"), chain: [],
                                             sequence: ad.sequence, fallbackOnNoAd: nil)
                    slots.append(PodSlot(sequence: ad.sequence, adIndex: nil, failure: failure))
                }
            } else {
                judge(firstAd..<state.ads.count, state: &state)
                groups.append((position, firstAd..<state.ads.count))
            }
        }
        if configuration.playsPods, !podMode, let chosen = state.chosen,
           let group = groups.first(where: { $0.ads.contains(chosen) }) {
            // A stand-alone wrapper with allowMultipleAds led to a pod: its sequenced ads play as one.
            let sequenced = group.ads.filter { state.ads[$0].sequence != nil }
            if sequenced.count >= 2, sequenced.contains(chosen) {
                slots = sequenced.map { index in
                    index == chosen ? PodSlot(sequence: state.ads[index].sequence, adIndex: index, failure: nil)
                        : podSlot(index, state: &state, recorded: index < chosen)
                }
                pending = standAlone(after: group.position + 1)
            }
        }
        warnAboutUndispatchableURLs(&state)
        var resolution = VASTResolution(ads: state.ads, failures: state.failures, hops: state.hops, warnings: state.warnings,
                                        defaultAdIndex: state.chosen)
        if slots.count >= 2 {
            resolution.pod = slots
            resolution.standAloneLeft = pending
        }
        resolution.budget = ResolutionBudget(requests: state.requests, spent: state.spent)
        return resolution
    }

    /// Why `ad` cannot play under this resolver's media criteria and variable-duration policy, or nil.
    private func playabilityError(of ad: ResolvedAd) -> VASTError? {
        ad.playabilityError(criteria: configuration.mediaCriteria, variableDuration: configuration.variableDuration)
    }

    /// The pod place of resolved ad `index`, judged: an unplayable ad's failure is recorded (unless `recorded`
    /// already) and kept with the place; the first playable one becomes the default ad.
    private func podSlot(_ index: Int, state: inout State, recorded: Bool = false) -> PodSlot {
        let ad = state.ads[index]
        guard let error = playabilityError(of: ad) else {
            if state.chosen == nil { state.chosen = index }
            return PodSlot(sequence: ad.sequence, adIndex: index, failure: nil)
        }
        let failure = ResolutionFailure(error: error, chain: ad.wrappers, sequence: ad.isPodAd ? ad.sequence : nil, fallbackOnNoAd: nil)
        if !recorded { state.failures.append(failure) }
        return PodSlot(sequence: ad.sequence, adIndex: index, failure: failure)
    }

    /// Resolves the next stand-alone ad of `resolution` that can play (a pod ad failed and needs a substitute),
    /// within what is left of the resolution's budgets: its hops, warnings and the failures of those that cannot
    /// play are added to `resolution`. Returns its index in `resolution.ads`, or nil when none is left.
    public func nextStandAloneAd(_ resolution: inout VASTResolution) async -> Int? {
        var state = State()
        (state.ads, state.failures, state.hops, state.warnings) = (resolution.ads, resolution.failures, resolution.hops, [])
        (state.requests, state.spent) = (resolution.budget.requests, resolution.budget.spent)
        var found: Int?
        while found == nil, !resolution.standAloneLeft.isEmpty {
            let next = resolution.standAloneLeft.removeFirst()
            let firstAd = state.ads.count
            await resolve(ad: next.ad, tagURL: next.tagURL, responseURL: next.responseURL, chain: [],
                          visited: next.tagURL.map { [$0] } ?? [], topLevel: (nil, false), state: &state)
            for index in firstAd..<state.ads.count where found == nil {
                let ad = state.ads[index]
                if let error = playabilityError(of: ad) {
                    state.failures.append(ResolutionFailure(error: error, chain: ad.wrappers, sequence: nil, fallbackOnNoAd: nil))
                } else {
                    found = index
                }
            }
        }
        let before = resolution.ads.count
        var fresh = State()
        fresh.ads = Array(state.ads[before...])
        warnAboutUndispatchableURLs(&fresh)
        (resolution.ads, resolution.failures, resolution.hops) = (state.ads, state.failures, state.hops)
        resolution.warnings += state.warnings + fresh.warnings
        resolution.budget = ResolutionBudget(requests: state.requests, spent: state.spent)
        return found
    }

    /// Finds the first playable ad among `range` while none is chosen; each unplayable ad met before it becomes a
    /// failure with its playability error (fired to every Error URL of its chain).
    private func judge(_ range: Range<Int>, state: inout State) {
        for index in range where state.chosen == nil {
            let ad = state.ads[index]
            if let error = playabilityError(of: ad) {
                state.failures.append(ResolutionFailure(error: error, chain: ad.wrappers,
                                                        sequence: ad.isPodAd ? ad.sequence : nil, fallbackOnNoAd: nil))
            } else {
                state.chosen = index
            }
        }
    }

    /// One warning for all tracking URLs that will never be dispatched because of their scheme
    /// (`ResolvedAd.undispatchableURLs`), and one for those that are not absolute (`relativeURLs`).
    private func warnAboutUndispatchableURLs(_ state: inout State) {
        func warn(_ urls: [SourcedURL], _ what: String) {
            var seen = Set<SourcedURL>()
            let dropped = urls.filter { seen.insert($0).inserted }
            guard !dropped.isEmpty else { return }
            let list = dropped.prefix(10).map { "\($0.url) (\($0.source))" }.joined(separator: ", ")
            state.warnings.append(VASTWarning(.resolution, .urlInvalid,
                "\(dropped.count) tracking URL(s) \(what) and are never dispatched: \(list)" + (dropped.count > 10 ? ", …" : "")))
        }
        warn(state.ads.flatMap(\.undispatchableURLs), "are not http(s)")
        warn(state.ads.flatMap(\.relativeURLs), "are not absolute URLs (no scheme or host)")
    }

    /// Each broken `<Ad>` of a response that still had good ones: a 101 failure fired to its own and the root
    /// `<Error>` URLs (not the chain's: the chain's ad may still play through the good ads).
    func recordInvalidAds(_ document: VASTDocument, chain: [WrapperLink], depth: Int, tagURL: String?,
                                  topLevel: TopLevel?, state: inout State) {
        for invalid in document.invalidAds {
            var error = invalid.error
            error.errorURLs = Self.resourced(error.errorURLs, depth: depth, tagURL: tagURL)
            state.failures.append(ResolutionFailure(error: Self.dispatchableOnly(error), chain: chain,
                                                    sequence: topLevel?.sequence ?? invalid.sequence,
                                                    fallbackOnNoAd: nil))
        }
    }

    static func resourced(_ urls: [SourcedURL], depth: Int, tagURL: String?) -> [SourcedURL] {
        urls.map { SourcedURL(url: $0.url, id: $0.id, source: .response(depth: depth, tagURL: tagURL)) }
    }

    /// The error's URLs as they are requested (`URLTemplate.dispatchForm`, against the document each came from);
    /// those never requested are dropped.
    private static func dispatchableOnly(_ error: VASTError) -> VASTError {
        var copy = error
        copy.errorURLs = error.errorURLs.compactMap { url in
            let document: String? = switch url.source {
            case let .wrapper(_, _, tagURL), let .response(_, tagURL): tagURL
            case .inline, .vmapBreak, .bid: nil
            }
            guard case let .request(form) = URLTemplate.dispatchForm(url.url, documentURL: document) else { return nil }
            return SourcedURL(url: form, id: url.id, source: url.source)
        }
        return copy
    }

    private func chainErrors(_ chain: [WrapperLink]) -> [SourcedURL] {
        chain.flatMap { link in link.wrapper.errorURLs.map { SourcedURL(url: $0, source: link.source) } }
    }

    /// Records a failure of `chain`. `followed` (default: `chain`) are the wrappers actually followed: the innermost
    /// of them that sets `fallbackOnNoAd` decides it.
    func fail(_ code: VASTErrorCode, _ message: String, chain: [WrapperLink], followed: [WrapperLink]? = nil,
                      extra: [SourcedURL] = [], topLevel: TopLevel, state: inout State) {
        let error = Self.dispatchableOnly(VASTError(code, message, errorURLs: chainErrors(chain) + extra))
        let fallback = (followed ?? chain).reversed().lazy.compactMap(\.wrapper.fallbackOnNoAd).first
        state.failures.append(ResolutionFailure(error: error, chain: chain, sequence: topLevel.sequence,
                                                fallbackOnNoAd: fallback))
    }

    func resolve(ad: Ad, tagURL: String?, responseURL: String?, chain: [WrapperLink], visited: [String],
                         topLevel: TopLevel, state: inout State) async {
        switch ad.content {
        case .inLine(let inLine):
            var resolved = ResolvedAd(inLineAd: ad, inLine: inLine, wrappers: chain,
                                      topLevelSequence: topLevel.sequence, isPodAd: topLevel.isPod,
                                      inLineDocumentURL: responseURL ?? tagURL)
            resolved.inLineResponseURL = responseURL
            state.ads.append(resolved)
        case .wrapper(let wrapper):
            await follow(wrapper, of: ad, tagURL: tagURL, chain: chain, visited: visited, topLevel: topLevel,
                         state: &state)
        }
    }
}
