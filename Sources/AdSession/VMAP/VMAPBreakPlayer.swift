import Findings
import Foundation
import Networking
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// One occurrence of a VMAP break: its ads asked for (`prepare`, when the content is `--break-prefetch` before it),
/// then played as a pod by the session core on the session's clock (`play`), with the break's own tracking at its
/// edges and its failures fired to its `error` tracking.
struct VMAPBreakPlayer {
    /// The session's configuration (each break's is derived from it).
    let configuration: SessionConfiguration
    let environment: SessionEnvironment
    let document: VMAPDocument
    /// Where the VMAP document came from: relative and scheme-relative `AdTagURI`s resolve against it.
    let documentURL: URL
    /// The stream's interstitials, when the breaks are an HLS stream's (`--interstitials`).
    var interstitials: InterstitialBreaks?

    /// A break's ads, asked for or not.
    enum Prepared {
        /// Not asked for: this player does not play the break (1003, 1005) or it names nothing to ask (1004, 1008).
        case notRequested(VMAPBreakReport.Outcome, VMAPError)
        /// Asked for: what preparation gave, under the break's configuration; `failure` when the response itself
        /// failed (1004, 1006, 1007, 1008); `written`, an interstitial's asset list as written (its findings, its
        /// pod tracking).
        case requested(PreparedAd, SessionConfiguration, tagURL: String?, failure: VMAPError?, written: InterstitialVAST.Written?)
    }

    /// The break's configuration: `[BREAKPOSITION]` and `[CONTENTPLAYHEAD]` its own, `allowMultipleAds` and
    /// `followRedirects` applied, a seed of its own (its `[CACHEBUSTING]` and `[TRANSACTIONID]` differ from the other
    /// breaks').
    func configuration(for slot: VMAPSchedule.Slot, number: Int) -> SessionConfiguration {
        var breakConfiguration = configuration
        breakConfiguration.breakRequest.position = slot.position
        if breakConfiguration.deviceMacros["CONTENTPLAYHEAD"] == nil {
            breakConfiguration.deviceMacros["CONTENTPLAYHEAD"] = MacroFormat.playhead(slot.time)
        }
        breakConfiguration.seed = Self.seed(configuration.seed, number: number)
        // An interstitial's X-PLAYOUT-LIMIT: the player stops its pod there, counted from its first frame.
        if let limit = interstitials?.interstitial(slot.breakIndex).playoutLimit {
            let step = SessionScript.Step(at: limit, inputs: [.playoutLimit], text: "playoutLimit@\(limit.millisecondText)")
            breakConfiguration.script = SessionScript(steps: breakConfiguration.script.steps + [step])
        }
        if let source = document.breaks[slot.breakIndex].source {
            if !source.allowMultipleAds { breakConfiguration.pod = .first }
            if !source.followRedirects { breakConfiguration.resolver.maxWrapperDepth = 0 }
        }
        return breakConfiguration
    }

    static func seed(_ seed: UInt64, number: Int) -> UInt64 {
        var mix = SplitMix64(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
        return mix.next()
    }

    /// What asking for a break's ads means: not asking (this player does not play it, or it names nothing to ask),
    /// or a session of the break's configuration (its tag the `AdTagURI`, or the VMAP's own URL answered with the
    /// inline VAST).
    enum Request {
        case notRequested(VMAPBreakReport.Outcome, VMAPError)
        case request(SessionConfiguration, tagURL: String?)
        /// An HLS interstitial's asset list, fetched and written as the break's pod.
        case assetList(SessionConfiguration, url: URL)
    }

    func request(_ slot: VMAPSchedule.Slot, number: Int) -> Request {
        let adBreak = document.breaks[slot.breakIndex]
        guard adBreak.isLinear else {
            return .notRequested(.skipped, VMAPError(.breakType, "breakType \"\(adBreak.breakTypes.joined(separator: ","))\": vplay plays linear breaks (a linear, rewarded player shows no nonlinear or display ads); not requested"))
        }
        guard let source = adBreak.source else { return .notRequested(.failed, VMAPError(.adResponse, "the break has no usable AdSource")) }
        var breakConfiguration = configuration(for: slot, number: number)
        switch source.content {
        case let .custom(_, templateType):
            return .notRequested(.skipped, VMAPError(.templateType, "CustomAdData (templateType \"\(templateType)\") is reported, not played"))
        case let .adTagURI(uri, templateType):
            guard Self.playsTemplate(templateType) || (interstitials != nil && templateType == InterstitialBreaks.assetListTemplate) else {
                return .notRequested(.skipped, VMAPError(.templateType, "AdTagURI templateType \"\(templateType)\" is not a VAST version vplay plays (vast1 to vast4)"))
            }
            let written = uri.trimmingCharacters(in: .whitespacesAndNewlines)
            // Macros first (a URL parser would encode their brackets), then resolved against the document: a
            // relative or scheme-relative URI takes the VMAP's own scheme and host.
            let expanded = TagLoader.tagURLMacroExpansion(breakConfiguration, now: breakConfiguration.now ?? environment.wallClock())(written)
            guard let url = URL(string: expanded, relativeTo: documentURL)?.absoluteURL, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                return .notRequested(.failed, VMAPError(.retrieval, "AdTagURI \"\(written)\" is not an http(s) URL; not requested"))
            }
            breakConfiguration.tag = url.absoluteString
            if templateType == InterstitialBreaks.assetListTemplate { return .assetList(breakConfiguration, url: url) }
            return .request(breakConfiguration, tagURL: breakConfiguration.tag)
        case let .inlineVAST(data, _):
            // The inline document answers for the VMAP's own URL: its relative URLs resolve where the VMAP's do.
            let key = TagLoader(configuration: breakConfiguration, environment: environment).source().tagURL
            breakConfiguration.replayDocuments.insert(RecordedTag(url: key, tag: FetchedTag(data: data)), at: 0)
            return .request(breakConfiguration, tagURL: nil)
        }
    }

    /// Asks for the break's ads and opens their media (`inspect`: as `purpose` says).
    func prepare(_ slot: VMAPSchedule.Slot, number: Int, purpose: AdPreparation.Purpose = .play) async -> Prepared {
        switch request(slot, number: number) {
        case let .notRequested(outcome, error): return .notRequested(outcome, error)
        case let .request(breakConfiguration, tagURL):
            let prepared = await AdPreparation(configuration: breakConfiguration, environment: environment).prepare(purpose)
            return .requested(prepared, breakConfiguration, tagURL: tagURL, failure: Self.responseFailure(prepared.resolution), written: nil)
        case let .assetList(breakConfiguration, url):
            guard let interstitials else { return .notRequested(.failed, VMAPError(.templateType, "an asset list outside an interstitial stream")) }
            var listConfiguration = breakConfiguration
            let written: InterstitialVAST.Written
            switch await fetchAssets(url, configuration: breakConfiguration) {
            case let .failure(error): return .notRequested(.failed, error)
            case let .success(assets): written = InterstitialVAST.build(interstitials.interstitial(slot.breakIndex), assets: assets)
            }
            // The list's pod answers for the list's URL: the session resolves it like an inline VAST.
            let key = TagLoader(configuration: listConfiguration, environment: environment).source().tagURL
            listConfiguration.replayDocuments.insert(RecordedTag(url: key, tag: FetchedTag(data: written.data)), at: 0)
            let prepared = await AdPreparation(configuration: listConfiguration, environment: environment).prepare(purpose)
            return .requested(prepared, listConfiguration, tagURL: url.absoluteString, failure: Self.responseFailure(prepared.resolution), written: written)
        }
    }

    /// An interstitial's `X-ASSET-LIST`, fetched through the session's own stack (policy, `--map`, the simulated
    /// network) with the first tag request's timeout, and read.
    private func fetchAssets(_ url: URL, configuration: SessionConfiguration) async -> Result<InterstitialAssets, VMAPError> {
        let fetcher = TagLoader(configuration: configuration, environment: environment).source().fetcher
        let timeout = min(configuration.resolver.firstRequestTimeout, configuration.resolver.resolutionTimeout)
        switch await TimeoutRace.fetch(fetcher, url, timeout: timeout, clock: environment.networkClock) {
        case let .failure(error): return .failure(VMAPDocumentLoader.retrievalError(error))
        case let .success(fetched):
            guard fetched.data.count <= configuration.resolver.parserLimits.maxBytes else {
                return .failure(VMAPError(.extraction, "the asset list is larger than \(configuration.resolver.parserLimits.maxBytes) bytes"))
            }
            return InterstitialAssets.read(fetched.data, base: (fetched.finalURL ?? url).absoluteString).mapError { VMAPError(.extraction, $0.message) }
        }
    }

    /// The break's own tracking of `event` (breakStart, breakEnd) as targets.
    func targets(_ event: String, of slot: VMAPSchedule.Slot) -> [TrackingPlan.Target] {
        document.breaks[slot.breakIndex].tracking.filter { $0.event == event }.map {
            TrackingPlan.Target(event: event, url: $0.url.trimmingCharacters(in: .whitespacesAndNewlines), source: .vmapBreak(index: slot.breakIndex + 1))
        }
    }

    /// The break's `error` tracking for a failure of `code` and `message`, as a fleet's sessions fire it: VMAP's
    /// `[ERROR_CODE]` and `[ERROR_MESSAGE]` and VAST's `[ERRORCODE]` filled (percent-encoded, as `VMAPBreakTracking`
    /// fills them), every other macro left for each session.
    func errorTargets(of slot: VMAPSchedule.Slot, code: Int, message: String) -> [TrackingPlan.Target] {
        targets("error", of: slot).map { target in
            var url = target.url
            for (name, value) in [("ERROR_CODE", String(code)), ("ERRORCODE", String(code)), ("ERROR_MESSAGE", message)] {
                url = url.replacingOccurrences(of: "[\(name)]", with: PercentEncoding.rfc3986(value))
            }
            return TrackingPlan.Target(event: "error", url: url, source: target.source)
        }
    }

    /// `templateType` values that name VAST (VMAP 1.0.1: vast1, vast2, vast3; VAST 4 by extension); empty is taken as
    /// VAST, as players do.
    static func playsTemplate(_ type: String) -> Bool {
        let value = type.lowercased().trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return true }
        guard value.hasPrefix("vast") else { return false }
        let version = value.dropFirst(4)
        return version.isEmpty || ["1", "2", "3", "4"].contains(where: { version.hasPrefix($0) })
    }

    /// The break's response failing as a whole, in VMAP's codes: 1007 no answer in time, 1008 an HTTP error or a
    /// refused request, 1006 a document that is not VAST, 1004 a VMAP document where VAST was expected (VMAP does not
    /// nest: it is never followed). Nil when the response was a VAST document (its ads' failures keep their VAST codes).
    static func responseFailure(_ resolution: VASTResolution) -> VMAPError? {
        guard let first = resolution.hops.first else { return nil }
        switch first.outcome {
        case let .failed(error):
            if error.message.contains("VMAP>") {
                return VMAPError(.adResponse, "the break's ad response is a VMAP document: VMAP does not nest, it is not followed")
            }
            switch error.code {
            case .xmlParse, .schemaValidation, .unsupportedVersion:
                return VMAPError(.extraction, "the break's ad response is not a VAST document: \(error.message)")
            default:
                return VMAPDocumentLoader.retrievalError(error)
            }
        case let .refused(error): return VMAPError(.retrieval, error.message)
        case .vast, .noAd: return nil
        }
    }
}
