import Findings
import Foundation
import Networking
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// Prepares the ad a session plays — resolve the tag, keep the resolver's choice, open its media (falling back to
/// the next file), plan its tracking and its rules — once, for `run`, `fleet` and `inspect` alike.
struct AdPreparation: Sendable {
    /// What to do beyond resolving.
    enum Purpose: Equatable {
        /// A session: open the media, time and save an `--adcash-state` download, warn about verifications.
        case play
        /// `inspect`: open the media only when asked (container facts, no decode), write nothing; `lint` also gives
        /// `creative`: the media is then decoded once, through creative QA, and measured against these targets.
        case inspect(openMedia: Bool, creative: CreativeTargets? = nil)
    }

    let configuration: SessionConfiguration
    var environment: SessionEnvironment

    func prepare(_ purpose: Purpose) async -> PreparedAd {
        BidNotices.add(configuration.bid, to: await prepareResolved(purpose), viewability: configuration.viewability)
    }

    private func prepareResolved(_ purpose: Purpose) async -> PreparedAd {
        let (tagURL, resolution, resolver) = await TagLoader(configuration: configuration, environment: environment).resolve()
        var criteria = configuration.mediaCriteria
        if let path = configuration.adcashStatePath, criteria.forcedFile == nil {
            criteria.adcashQuality = AdcashState.nextQuality(statePath: path)
        }
        var steps: [PreparedAd.Step] = resolution.warnings.map { .warning($0.finding) }
        if Task.isCancelled {
            // Stopped (a signal) while the tag chain was loading: not an ad error. No Error URL is told "cancelled"
            // (it was sent 301 before), nothing plays, and the session reports itself interrupted.
            return PreparedAd(resolution: resolution, outcome: .interrupted(steps: steps, ad: nil))
        }
        if configuration.pod == .first, resolution.podAds.count >= 2 {
            steps.append(.warning(Finding(.podFirstOnly, "the response is an ad pod of \(resolution.podAds.count) ads; --pod first plays only the first that can play")))
        }
        if !resolution.pod.isEmpty {
            return await PodPreparation(preparation: self, resolver: resolver, tagURL: tagURL, criteria: criteria, purpose: purpose)
                .prepare(resolution, prelude: steps)
        }

        guard let ad = resolution.defaultAd, ad.linear != nil else {
            // No ad: the no-ad error and every failed chain's code go to their Error URLs. Each failed chain gets
            // its own code (pod ad 1's 403, pod ad 2's 201); the session ends with the response's error. An ad that
            // resolved but has nothing playable (4xx) is a media error (exit 4).
            let error = resolution.noAdError ?? VASTError(.noAdAfterWrapper, "no playable linear ad")
            let failure = SessionError(kind: .of(error.code), code: error.code, message: error.message)
            steps.append(.failure(failure, errorTargets: error.errorURLs.map(Self.errorTarget), facts: nil))
            for other in resolution.failures where other.error != error {
                steps.append(.fire(other.error.errorURLs.map(Self.errorTarget), errorCode: other.error.code, reason: nil, facts: nil))
            }
            return PreparedAd(resolution: resolution, outcome: .ready(.single(SessionPlan(steps: steps, failure: failure), media: nil)))
        }
        // Failed chains beside the ad that plays (another pod or buffet ad) still get their codes.
        steps += Self.failureSteps(resolution.failures, purpose: purpose)
        guard var one = await prepareAd(ad, tagURL: tagURL, criteria: criteria, purpose: purpose) else {
            return PreparedAd(resolution: resolution, outcome: .interrupted(steps: steps, ad: ad))
        }
        one.plan.steps = steps + one.plan.steps
        return PreparedAd(resolution: resolution, outcome: .ready(AdBreak(kind: .single, prelude: SessionPlan(steps: []), turns: [one])))
    }

    /// The Error URLs of failed chains (and, in a session, a warning for each), fired before playback.
    static func failureSteps(_ failures: [ResolutionFailure], purpose: Purpose) -> [PreparedAd.Step] {
        failures.flatMap { other -> [PreparedAd.Step] in
            var steps: [PreparedAd.Step] = [.fire(other.error.errorURLs.map(Self.errorTarget), errorCode: other.error.code, reason: nil, facts: nil)]
            if purpose == .play {  // `inspect` lists the failures as errors
                steps.append(.warning(Finding(.vastError(other.error.code), "an ad of the response failed with VAST error \(other.error.code.rawValue): \(other.error.message)")))
            }
            return steps
        }
    }

    /// Prepares one resolved ad: the `--media-file` check, its verifications, its media opened (falling back to the
    /// next file), its tracking plan and rules: its turn, whose steps are this ad's only (its place is the first
    /// until a pod gives it one). Nil when a signal stopped it while its media opened.
    func prepareAd(_ ad: ResolvedAd, tagURL: URL, criteria: MediaSelectionCriteria, purpose: Purpose) async -> AdTurn<PreparedAd.TurnMedia>? {
        let place = BreakAd(index: 1, id: ad.ad.id, sequence: nil)
        func failed(_ failure: SessionError, _ steps: [PreparedAd.Step], errorTargets: [TrackingPlan.Target], chosen: MediaSelection? = nil)
            -> AdTurn<PreparedAd.TurnMedia> {
            AdTurn(place: place, plan: SessionPlan(steps: steps + [.failure(failure, errorTargets: errorTargets, facts: AdMacroFacts(ad: ad))], failure: failure, ad: ad),
                   media: chosen.map { .chosen($0) })
        }
        guard let linear = ad.linear else {
            return failed(SessionError(kind: .ad, code: .noAdAfterWrapper, message: "no playable linear ad"), [],
                          errorTargets: ad.errorURLs.map(Self.errorTarget))
        }
        if let forced = criteria.forcedFile, !MediaFileSelector.names(forced, in: linear.mediaFiles) {
            // The command line asked for a file the ad does not have: the user's mistake, not the ad server's.
            // Reported (exit 2), never fired to its Error URLs, nothing played.
            let files = linear.mediaFiles.enumerated().map { "#\($0.offset + 1)" + ($0.element.id.map { " (id \($0))" } ?? "") }
            return failed(SessionError(kind: .usage, code: .noSupportedMediaFile,
                                       message: "--media-file \(forced): the ad has no MediaFile with that id or 1-based position; it has \(files.isEmpty ? "none" : files.joined(separator: ", "))"),
                          [], errorTargets: [])
        }
        var steps: [PreparedAd.Step] = []
        if configuration.reward == nil, let extensionReward = ad.rewarded, !extensionReward.isEnabled {
            // The tag describes a reward and turns it off: say so, in run and inspect alike (inspect showed the
            // reward, a run never granted it, and nothing said why).
            steps.append(.warning(Finding(.rewardExtensionOff, "the tag's RewardedVideo extension has no <RewardedVideoOn>1</RewardedVideoOn>: no reward is granted (--reward CURRENCY:AMOUNT grants one anyway)")))
        }
        // Inspect reports them too (its warnings name each vendor, as a run's do; `inspect --strict` fails on them
        // as a run warns); only a session fires their verificationNotExecuted URLs.
        steps += await verificationSteps(ad)
        steps += interactiveSteps(ad, linear: linear)

        let inLineTagURL = ad.inLineResponseURL ?? tagURL.absoluteString
        // The files in the order they are tried, chosen once: the opener walks them, the report renders them.
        let ranking: MediaRanking
        do {
            ranking = try MediaFileSelector.rank(linear.mediaFiles, criteria: criteria)
        } catch {
            if case .inspect(openMedia: false, _) = purpose { return AdTurn(place: place, plan: SessionPlan(steps: steps, ad: ad), media: nil) }
            // Stopped (a signal): see below.
            if Task.isCancelled { return nil }
            return failed(SessionError(kind: .media, code: error.code, message: error.message), steps, errorTargets: ad.errorURLs.map(Self.errorTarget))
        }
        if case .inspect(openMedia: false, _) = purpose {
            return AdTurn(place: place, plan: SessionPlan(steps: steps, ad: ad), media: .chosen(ranking.selection(at: 0)))
        }
        var opener = MediaOpener(mappings: configuration.mappings, decoderThreads: purpose == .play ? configuration.decoderThreads : 1,
                                 media: environment.media, clock: environment.networkClock, network: configuration.network,
                                 throttleSpeed: Self.realtimeSpeed(configuration))
        if case .inspect(_, _?) = purpose {
            // Decoded through creative QA: as many threads as a session's decode.
            opener.decoderThreads = configuration.decoderThreads
            opener.analyzeCreative = true
        }
        let (opening, skipped) = await environment.onMediaExecutor {
            opener.open(ranking, criteria: criteria, inLineTagURL: inLineTagURL)
        }
        // Stopped (a signal) while the media was opening: FFmpeg gave up at once. Not the media's error: no Error
        // URL is told anything, nothing plays, and the session reports itself interrupted.
        if Task.isCancelled { return nil }
        steps += skipped.map { .warning(Finding(.mediaFallback, $0)) }
        switch opening {
        case let .success(opened):
            let (media, plan, rules, more) = await takeOpened(opened, ad: ad, linear: linear, inLineTagURL: inLineTagURL, criteria: criteria, purpose: purpose)
            // In real time the bytes really arrive late (a throttle): the engine measures, the model is not replayed.
            let session = SessionPlan(steps: steps + more, ad: ad, assetURI: media.assetURI,
                                      playback: .init(plan: plan, rules: rules, delivery: media.measuredNetwork == nil ? media.delivery : nil,
                                                      measuredNetwork: media.measuredNetwork))
            return AdTurn(place: place, plan: session, media: .opened(media))
        case let .failure(error):
            return failed(error, steps, errorTargets: ad.errorURLs.map(Self.errorTarget), chosen: ranking.selection(at: 0))
        }
    }

    /// The ad's media is open: the media, its plan and rules, and what is reported about it (the resolved ad, the
    /// media's warnings).
    private func takeOpened(_ opened: MediaOpener.Opened, ad: ResolvedAd, linear: Linear, inLineTagURL: String, criteria: MediaSelectionCriteria,
                            purpose: Purpose) async -> (PreparedAd.Media, TrackingPlan, PlaybackRules, [PreparedAd.Step]) {
        var media = PreparedAd.Media(selection: opened.selection, location: opened.location, source: opened.source,
                                     assetURI: BeaconPlanner.assetURI(opened.selection.file.url, inLineTagURL: inLineTagURL),
                                     delivery: opened.delivery,
                                     measuredNetwork: Self.realtimeSpeed(configuration).flatMap { speed in
                                         configuration.network.map { network in
                                             PlaybackEngine.MeasuredNetwork(startupBuffer: network.startupBuffer, rebuffer: network.rebuffer,
                                                                            stallTimeout: network.stallTimeout, sinceRequested: opened.sinceRequested, speed: speed)
                                         }
                                     })
        media.streaming = opened.streaming
        var steps: [PreparedAd.Step] = []
        if purpose == .play, let note = await adcashNote(location: opened.location, quality: criteria.adcashQuality) {
            steps.append(.warning(Finding(.mediaAdcashQuality, note)))
        }
        let duration = media.duration
        let plan = TrackingPlan(ad: ad, duration: duration)
        let rules = Self.rules(for: ad, linear: linear, plan: plan, duration: duration, configuration: configuration)
        steps.append(.resolved(ResolvedInfo(
            adID: ad.ad.id, adSystem: ad.inLine.adSystem?.name, adTitle: ad.inLine.adTitle, wrapperCount: ad.wrappers.count,
            mediaURL: opened.selection.file.url, mediaReason: opened.selection.reason, vastDuration: linear.duration,
            media: media.source.info, skipOffset: rules.skipOffset, reward: rules.reward)))
        if let mismatch = media.source.info.durationMismatch { steps.append(.warning(Finding(.mediaDurationContainer, mismatch))) }
        if let delivery = opened.delivery, delivery.map.headerAtEnd {
            steps.append(.warning(Finding(.mediaMoovAfterMdat, Self.trailingHeaderWarning(delivery.map))))
        }
        if let warning = Self.durationWarning(declared: linear.duration, media: duration) { steps.append(.warning(Finding(.mediaDurationDeclared, warning))) }
        steps += MediaDeclarations.findings(opened.selection.file, info: media.source.info).map { .warning($0) }
        if case let .inspect(_, creative?) = purpose {
            steps += await creativeSteps(media.source, location: opened.location, targets: creative, headerAtEnd: opened.delivery?.map.headerAtEnd == true)
        }
        return (media, plan, rules, steps)
    }

    /// Creative QA (`lint`): every frame of the opened media decoded once, measured as it passes, then the findings.
    /// Media that fails to decode to its end is a finding with its VAST code (a truncated or corrupt file).
    /// A clip measured earlier in the same call (`CreativeTargets.cache`) is not decoded again.
    private func creativeSteps(_ source: any MediaSource, location: String, targets: CreativeTargets, headerAtEnd: Bool) async -> [PreparedAd.Step] {
        let entry: CreativeCache.Entry
        if let cached = targets.cache?.entry(for: location) {
            entry = cached
        } else {
            let failure = await environment.onMediaExecutor { () -> MediaError? in
                do throws(MediaError) {
                    while try source.nextFrame() != nil { if Task.isCancelled { return nil } }
                    return nil
                } catch {
                    return error
                }
            }
            entry = CreativeCache.Entry(report: source.creativeReport, failure: failure)
            if !Task.isCancelled { targets.cache?.store(entry, for: location) }
        }
        var steps: [PreparedAd.Step] = []
        if let failure = entry.failure {
            steps.append(.warning(Finding(.vastError(failure.vastCode), "decoding the media through: \(failure.description)")))
        }
        guard let report = entry.report else { return steps }
        if report.moovAfterMediaData, !headerAtEnd {
            steps.append(.warning(Finding(.mediaMoovAfterMdat, Self.trailingHeaderWarning(nil))))
        }
        steps += CreativeQA.findings(report, info: source.info, targets: targets).map { .warning($0) }
        return steps
    }

    /// The speed of a real-time session under `--network` (its media then reads through the profile's throttle); nil
    /// on the virtual clock or without a network.
    static func realtimeSpeed(_ configuration: SessionConfiguration) -> Double? {
        guard configuration.network != nil, case let .realtime(speed) = configuration.clock else { return nil }
        return speed
    }

    /// An MP4 whose `moov` comes after its media data: downloaded progressively, nothing plays until nearly all of it
    /// has arrived.
    static func trailingHeaderWarning(_ map: DeliveryMap?) -> String {
        let arrived = map.map { "its first \($0.headerBytes) of \($0.size) bytes have" } ?? "nearly all of it has"
        return "the media's MP4 header (moov) comes after its media data: downloaded progressively, nothing plays until \(arrived) arrived (re-mux it with -movflags +faststart)"
    }

    /// An `InteractiveCreativeFile` vplay does not run (VAST 4.3 §3.9.3): 409 to the chain's Error URLs, said, and the
    /// MediaFile plays (an ad with no MediaFile, or refused for `variableDuration`, failed its playability with 409).
    func interactiveSteps(_ ad: ResolvedAd, linear: Linear) -> [PreparedAd.Step] {
        guard let interactive = linear.interactiveCreativeFiles.first else { return [] }
        let framework = interactive.apiFramework ?? "no apiFramework"
        let variable = interactive.variableDuration == true ? " with variableDuration=\"true\" (played under --variable-duration play-media)" : ""
        let message = "the InteractiveCreativeFile (\(framework))\(variable) is not executed: 409 to the chain's Error URLs, then its MediaFile plays"
        return [.warning(Finding(.interactiveNotExecuted, message)),
                .fire(ad.errorURLs.map(Self.errorTarget), errorCode: .interactiveCreativeNotExecuted, reason: nil, facts: AdMacroFacts(ad: ad))]
    }

    /// Verification scripts load before playback (VAST 4.x §1.8); vplay runs no JavaScript, so each one reports
    /// `verificationNotExecuted` with the spec's `[REASON]`: 1 when its vendor is not on `--verification-allow`
    /// (rejected), 3 under `--verification-probe` when none of its JavaScriptResources can be loaded (a malformed
    /// URL, a 404 or other failed status, a timeout: fetched, never run), else 2 ("not supported").
    func verificationSteps(_ ad: ResolvedAd) async -> [PreparedAd.Step] {
        var steps: [PreparedAd.Step] = []
        for verification in ad.verifications {
            let vendor = verification.value.vendor ?? "(no vendor)"
            let reason: Int, why: String
            if let allowed = configuration.verificationAllow,
               !allowed.contains(where: { $0.caseInsensitiveCompare(verification.value.vendor ?? "") == .orderedSame }) {
                (reason, why) = (1, "rejected: its vendor is not on --verification-allow (REASON 1)")
            } else if configuration.verificationProbe, let failure = await probe(verification.value) {
                (reason, why) = (3, "its resource could not be loaded: \(failure) (REASON 3)")
            } else {
                (reason, why) = (2, "vplay runs no JavaScript (REASON 2)")
            }
            let targets = verification.value.tracking.filter { $0.event == .verificationNotExecuted }
                .map { TrackingPlan.Target(event: "verificationNotExecuted", url: $0.url, source: verification.source) }
            steps += [.warning(Finding(.verificationNotExecuted, "verification \(vendor) from \(verification.source) not executed: \(why)")), .fire(targets, errorCode: nil, reason: reason, facts: AdMacroFacts(ad: ad))]
        }
        return steps
    }

    /// `--verification-probe`: why none of the verification's JavaScriptResources loads (each fetched in turn, as
    /// a player would before running it, through `--map` and the address policy; never run), or nil when one does or
    /// it has none.
    private func probe(_ verification: Verification) async -> String? {
        guard !verification.javaScriptResources.isEmpty else { return nil }
        var failures: [String] = []
        let fetcher = URLMapFetcher(mappings: configuration.mappings, next: environment.tagFetcher)
        for resource in verification.javaScriptResources {
            let url: URL
            do { url = try RequestURL.check(resource.url.trimmingCharacters(in: .whitespacesAndNewlines)).url } catch {
                failures.append("\(resource.url.prefix(200)) is not a URL that can be requested (\(error))")
                continue
            }
            switch await TimeoutRace.fetch(fetcher, url, timeout: configuration.resolver.wrapperTimeout, clock: environment.networkClock) {
            case .success: return nil
            case let .failure(error) where error.code == .xmlParse && error.message.contains("larger than"):
                return nil  // it answered, with a large script: loaded, as far as a probe can tell
            case let .failure(error): failures.append(error.message)
            }
        }
        return failures.joined(separator: "; ")
    }

    /// `--adcash-state`: times this download (one full read, as the SDK downloads before playing) and saves it.
    private func adcashNote(location: String, quality: AdcashQuality?) async -> String? {
        guard let path = configuration.adcashStatePath, let quality else { return nil }
        do {
            let seconds = try await environment.onMediaExecutor { () throws(MediaError) -> Double in
                try AdcashState.timeDownload(location, media: environment.media, clock: environment.networkClock)
            }
            try AdcashState(quality: quality, downloadSeconds: seconds).save(path)
            return String(format: "adcash: played %@ quality; download took %.3f s (saved to %@)", quality.rawValue, seconds, path)
        } catch {
            return "adcash: could not time or save the download: \(error)"
        }
    }

    /// The warning when the VAST `<Duration>` and the media's differ by more than 1 s (quartiles use the media's).
    static func durationWarning(declared: Duration?, media: Duration) -> String? {
        guard let declared, abs((declared - media).seconds) > 1 else { return nil }
        return "VAST <Duration> \(declared.clockText) differs from the media's \(media.clockText) by more than 1 s; quartiles use the media's"
    }

    /// The player's rules for this ad: its skip offset, reward, end card and click-through, with the configured
    /// policies.
    static func rules(for ad: ResolvedAd, linear: Linear, plan: TrackingPlan, duration: Duration, configuration: SessionConfiguration) -> PlaybackRules {
        var rules = PlaybackRules(duration: duration)
        rules.progressOffsets = plan.progressOffsets
        rules.skipOffset = linear.skipOffset.map { $0.resolve(against: duration) }
        rules.reward = reward(for: ad, configuration: configuration)
        rules.rewardThreshold = configuration.rewardThreshold
        rules.videoClose = configuration.videoClose
        rules.hasEndCard = plan.endCard != nil
        rules.endCardAfterSkip = configuration.endCardAfterSkip
        rules.closeDelay = configuration.closeDelay
        rules.hasClickThrough = ad.clickThrough != nil
        rules.hasEndCardClickThrough = plan.endCard?.companion.value.clickThrough != nil
        rules.icons = plan.icons.map(\.rule)
        rules.willClose = configuration.willClose
        rules.willBeginClickThrough = configuration.willBeginClickThrough
        switch configuration.viewability {
        case .auto:
            let asks = !(ad.viewable.isEmpty && ad.notViewable.isEmpty && ad.viewUndetermined.isEmpty)
            rules.viewability = asks ? .measured : .off
        case .measured: rules.viewability = .measured
        case .undetermined: rules.viewability = .undetermined
        case .off: rules.viewability = .off
        }
        return rules
    }

    /// The configured reward, else the tag's RewardedVideo extension's.
    static func reward(for ad: ResolvedAd, configuration: SessionConfiguration) -> Reward? {
        if let reward = configuration.reward { return reward }
        guard let extensionReward = ad.rewarded, extensionReward.isEnabled else { return nil }
        return Reward(currency: extensionReward.currencyName ?? "reward", amount: extensionReward.amount ?? 1)
    }

    static func errorTarget(_ url: SourcedURL) -> TrackingPlan.Target {
        TrackingPlan.Target(event: "error", url: url.url, source: url.source)
    }
}
