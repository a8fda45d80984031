import Primitives
import BeaconSink
import Foundation
import PlayerEngine
import TrackingBeacons
import VAST

/// Plays one ad session end to end — resolve the tag, choose and open the media, play it on the configured clock,
/// fire every tracking URL of every event — and reports each step to `observer` as it happens.
/// The composition root: the only place that reads the machine's wall clock (when `--now` is not given).
public struct AdSessionRunner: Sendable {
    public let configuration: SessionConfiguration

    public init(configuration: SessionConfiguration) { self.configuration = configuration }

    /// The warning when the VAST `<Duration>` and the media's differ by more than 1 s (quartiles use the media's).
    static func durationWarning(declared: Duration?, media: Duration) -> String? {
        guard let declared, abs((declared - media).seconds) > 1 else { return nil }
        return "VAST <Duration> \(declared.clockText) differs from the media's \(media.clockText) by more than 1 s; quartiles use the media's"
    }

    public func run(observer: @escaping @Sendable (SessionRecord) async -> Void) async -> SessionSummary {
        let tally = Tally(observer: observer)
        let wallStart = configuration.now ?? Int64(Date().timeIntervalSince1970 * 1000)
        let tagFetcher = HTTPTagFetcher(userAgent: configuration.userAgent, maxBytes: configuration.resolver.parserLimits.maxBytes)
        let http = configuration.dryRun ? nil : HTTPBeaconTransport(userAgent: configuration.userAgent, connectTimeout: configuration.beaconPolicy.timeout)
        var transport: (any BeaconTransport)? = http
        var sink: BeaconSink?
        var routing: SinkRouting?
        if let scope = configuration.sink, let http {
            do {
                let hookup = try await SinkHookup.start(scope: scope, faults: configuration.sinkFaults, http: http)
                (sink, routing, transport) = (hookup.sink, hookup.routing, hookup.transport)
            } catch {
                transport = SinkHookup.withoutSink(scope: scope, base: http)
                await tally.send(.warning(SinkHookup.unavailable(error)))
            }
        }
        let dispatcher = BeaconDispatcher(transport: transport, policy: configuration.beaconPolicy,
                                          wallClock: { Int64(Date().timeIntervalSince1970 * 1000) }) { record in
            await tally.beacon(record)
        }
        let session = SessionState(
            planner: BeaconPlanner(configuration: configuration, wallStart: wallStart),
            summary: SessionSummary(outcome: .completed, dryRun: configuration.dryRun),
            tally: tally, dispatcher: dispatcher)

        await play(session, fetcher: tagFetcher)
        if Task.isCancelled { session.summary.outcome = .interrupted }

        // Not cancelled with the session: an interrupted run still waits (briefly) for its beacons' answers.
        let drain = Task.isCancelled ? min(configuration.beaconDrain, .seconds(2)) : configuration.beaconDrain
        await Task { await dispatcher.finish(waitingAtMost: drain) }.value
        if let sink, let routing {
            let reconciliation = Reconciliation(records: await tally.beacons, hits: sink.hits(), routing: routing)
            session.summary.reconciliation = reconciliation
            await tally.send(.reconciliation(reconciliation))
            await sink.stop()
        }
        await tagFetcher.shutdown()
        await http?.shutdown()
        await tally.fill(&session.summary)
        return session.summary
    }

    private func play(_ session: SessionState, fetcher http: HTTPTagFetcher) async {
        let tally = session.tally
        // 1. The tag and its wrapper chain.
        let loader = TagLoader(configuration: configuration, http: http)
        let (tagURL, resolution) = await loader.resolve()
        session.summary.hops = resolution.hops
        for warning in resolution.warnings { await tally.send(.warning(String(describing: warning))) }

        guard let ad = resolution.defaultAd, let linear = ad.linear else {
            // No ad: the no-ad error and every failed chain's code go to their Error URLs.
            // Each failed chain gets its own code (pod ad 1's 403, pod ad 2's 201); the session ends with the
            // response's error. An ad that resolved but has nothing playable (4xx) is a media error (exit 4).
            let error = resolution.noAdError ?? VASTError(.noAdAfterWrapper, "no playable linear ad")
            let kind: SessionError.Kind = (400..<500).contains(error.code.rawValue) ? .media : .ad
            await session.fail(SessionError(kind: kind, code: error.code.rawValue, message: error.message), error.errorURLs.map(Self.errorTarget))
            for failure in resolution.failures where failure.error != error {
                await session.fire(failure.error.errorURLs.map(Self.errorTarget), errorCode: failure.error.code.rawValue, playhead: nil, clock: .zero)
            }
            return
        }
        // Failed chains beside the ad that plays (another pod or buffet ad) still get their codes.
        for failure in resolution.failures {
            await session.fire(failure.error.errorURLs.map(Self.errorTarget), errorCode: failure.error.code.rawValue, playhead: nil, clock: .zero)
            await tally.send(.warning("an ad of the response failed with VAST error \(failure.error.code.rawValue): \(failure.error.message)"))
        }
        session.summary.adID = ad.ad.id
        session.planner.begin(ad)
        let errorTargets = ad.errorURLs.map(Self.errorTarget)

        // Verification scripts load before playback (VAST 4.x §1.8); vplay runs no JavaScript, so each one reports
        // verificationNotExecuted with [REASON] 2 ("not supported").
        for verification in ad.verifications {
            let targets = verification.value.tracking.filter { $0.event == .verificationNotExecuted }
                .map { TrackingPlan.Target(event: "verificationNotExecuted", url: $0.url, source: verification.source) }
            await tally.send(.warning("verification \(verification.value.vendor ?? "(no vendor)") from \(verification.source) not executed: vplay runs no JavaScript (REASON 2)"))
            await session.fire(targets, errorCode: nil, playhead: nil, clock: .zero, reason: 2)
        }

        // 2. The media file: the best by the selection rules that opens. When it cannot be opened (not found, not
        // media, truncated before its first frame), the next best is tried, as players fall back within an ad's
        // MediaFiles; only when none opens does the ad fail, with the first (the preferred file's) error.
        var criteria = configuration.mediaCriteria
        if let path = configuration.adcashStatePath, criteria.forcedFile == nil {
            criteria.adcashQuality = AdcashState.nextQuality(statePath: path)
        }
        let inLineTagURL = loader.inLineTagURL(of: ad, tagURL: tagURL)
        let (opening, skipped) = MediaOpener(mappings: configuration.mappings, decoderThreads: configuration.decoderThreads)
            .open(linear.mediaFiles, criteria: criteria, inLineTagURL: inLineTagURL)
        for note in skipped { await tally.send(.warning(note)) }
        let opened: MediaOpener.Opened
        switch opening {
        case let .success(file): opened = file
        case let .failure(error):
            await session.fail(error, errorTargets)
            return
        }
        let (selection, location, source) = (opened.selection, opened.location, opened.source)
        session.planner.assetURI = BeaconPlanner.assetURI(selection.file.url, inLineTagURL: inLineTagURL)
        session.summary.mediaURL = selection.file.url
        if let path = configuration.adcashStatePath, let quality = criteria.adcashQuality {
            do {
                let seconds = try AdcashState.timeDownload(location)
                try AdcashState(quality: quality, downloadSeconds: seconds).save(path)
                await tally.send(.warning(String(format: "adcash: played %@ quality; download took %.3f s (saved to %@)", quality.rawValue, seconds, path)))
            } catch {
                await tally.send(.warning("adcash: could not time or save the download: \(error)"))
            }
        }

        let duration = source.info.exactDuration
        session.summary.duration = duration
        await tally.send(.resolved(ResolvedInfo(
            adID: ad.ad.id, adSystem: ad.inLine.adSystem?.name, adTitle: ad.inLine.adTitle, wrapperCount: ad.wrappers.count,
            mediaURL: selection.file.url, mediaReason: selection.reason, vastDuration: linear.duration, media: source.info,
            skipOffset: linear.skipOffset.map { $0.resolve(against: duration) }, reward: Self.reward(for: ad, configuration: configuration))))
        if let warning = Self.durationWarning(declared: linear.duration, media: duration) { await tally.send(.warning(warning)) }

        // 3. Play, firing each event's tracking at its time.
        let plan = TrackingPlan(ad: ad, duration: duration)
        let rules = Self.rules(for: ad, linear: linear, plan: plan, duration: duration, configuration: configuration)
        let engine = PlaybackEngine(configuration: .init(rules: rules))
        var gate = TrackingGate(repeatTracking: configuration.repeatTracking, replayTracking: configuration.replayTracking)
        let onEvent: (PlaybackEvent) async -> Void = { event in
            if event.name == .mute { session.planner.muted = true }
            if event.name == .unmute { session.planner.muted = false }
            await tally.send(.event(event))
            guard gate.fires(event) else { return }
            await session.fire(plan.targets(for: event), errorCode: nil, playhead: event.playhead, clock: event.clock)
        }
        let decoderThreads = configuration.decoderThreads
        let reopen: () throws(MediaError) -> any MediaSource = {
            try FFmpegMediaSource(location: location, options: MediaOpenOptions(decoderThreads: decoderThreads))
        }
        do {
            let report: PlaybackReport
            switch configuration.clock {
            case .virtual:
                report = try await engine.play(source, script: configuration.script, reopen: reopen, on: VirtualClock(), onEvent: onEvent)
            case let .realtime(speed):
                report = try await engine.play(source, script: configuration.script, reopen: reopen, on: ScaledClock(speed: speed), onEvent: onEvent)
            }
            session.summary.playback = report
            session.summary.clock = report.clock
            if report.interrupted { session.summary.outcome = .interrupted }
        } catch {
            // The media failed mid-play: the error goes out with the playhead where playback stopped.
            session.summary.playback = error.report
            session.summary.clock = error.clock
            await session.fail(SessionError(kind: .media, code: error.error.vastCode, message: error.error.description,
                                            playhead: error.playhead, clock: error.clock), errorTargets)
        }
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
        rules.hasEndCardClickThrough = plan.endCard?.value.clickThrough != nil
        rules.willClose = configuration.willClose
        rules.willBeginClickThrough = configuration.willBeginClickThrough
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

/// Counts what a session reported, and passes each record on to the observer.
actor Tally {
    private let observer: @Sendable (SessionRecord) async -> Void
    private var events = 0, plannedCount = 0, delivered = 0, failed = 0
    /// Every beacon record, for reconciliation with the sink.
    private(set) var beacons: [BeaconRecord] = []
    private var warnings: [String] = []

    init(observer: @escaping @Sendable (SessionRecord) async -> Void) { self.observer = observer }

    func send(_ record: SessionRecord) async {
        switch record {
        case .event: events += 1
        case let .warning(text): warnings.append(text)
        default: break
        }
        await observer(record)
    }

    func planned() { plannedCount += 1 }

    func beacon(_ record: BeaconRecord) async {
        if !record.dryRun && record.isFinalAttempt { if record.delivered { delivered += 1 } else { failed += 1 } }
        beacons.append(record)
        await observer(.beacon(record))
    }

    func fill(_ summary: inout SessionSummary) {
        summary.events = events
        summary.beaconsPlanned = plannedCount
        summary.beaconsDelivered = delivered
        summary.beaconsFailed = failed
        summary.warnings = warnings
    }
}

/// The mutable state of one session, confined to the task that runs it.
final class SessionState {
    var planner: BeaconPlanner
    var summary: SessionSummary
    let tally: Tally
    let dispatcher: BeaconDispatcher

    init(planner: BeaconPlanner, summary: SessionSummary, tally: Tally, dispatcher: BeaconDispatcher) {
        self.planner = planner
        self.summary = summary
        self.tally = tally
        self.dispatcher = dispatcher
    }

    /// Plans and dispatches `targets` for an event (or an error, with its code).
    func fire(_ targets: [TrackingPlan.Target], errorCode: Int?, playhead: Duration?, clock: Duration, reason: Int? = nil) async {
        for target in targets {
            let (record, fresh) = planner.plan(target, playhead: playhead, clock: clock, errorCode: errorCode, reason: reason)
            for name in fresh { await tally.send(.warning("[\(name)] is not a VAST macro; left as written")) }
            await tally.planned()
            await dispatcher.submit(record)
        }
    }

    /// Reports `error`, fires `targets` with `[ERRORCODE]` = its code, and marks the session failed.
    func fail(_ error: SessionError, _ targets: [TrackingPlan.Target]) async {
        await tally.send(.error(error))
        await fire(targets, errorCode: error.code, playhead: error.playhead, clock: error.clock ?? .zero)
        summary.outcome = error.kind == .ad ? .adError : .mediaError
        summary.error = error
    }
}
