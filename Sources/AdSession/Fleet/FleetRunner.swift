import Findings
import Primitives
import BeaconSink
import Foundation
import Histogram
import PlayerEngine
import TrackingBeacons
import VAST

/// Plays a fleet: resolves the tag and opens, decodes and verifies the media once, then plays every session of its
/// shard on its own virtual clock from its scenario, through the same session core as a single run
/// (`SessionCore`), sending every beacon over real HTTP (or to the embedded sink), and reports expected against sent
/// against received for each tracking URL.
public struct FleetRunner: Sendable {
    /// What the fleet runs.
    public let configuration: FleetConfiguration
    /// What the fleet reaches outside itself: tag fetching, beacon transport, media opening, clocks.
    public let environment: SessionEnvironment

    /// - Parameter environment: what the fleet reaches outside itself; `.live(configuration.session)` when nil.
    public init(configuration: FleetConfiguration, environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.environment = environment ?? .live(configuration.session, pooledBeacons: true)
    }

    /// Whether `run` shuts the environment down at its end (a VMAP fleet runs one fleet a break on one environment).
    var shutsDownEnvironment = true

    /// Runs the fleet. Returns the report, or the error that kept any session from playing (no ad, no playable
    /// media), with the warnings met on the way. Either way every session fires what a single session of the tag
    /// fires (a failed ad's Error URLs included).
    /// - Parameter admitMedia: given where the media was opened from (a local path or a URL) before any session
    ///   plays; a message refuses it (an output of the run would replace that file), and no session plays.
    public func run(onProgress: @escaping @Sendable (FleetProgress) -> Void = { _ in },
                    admitMedia: @Sendable (String) -> String? = { _ in nil }) async -> Result<FleetReport, FleetFailure> {
        let prepared = await prepare()
        let result: Result<FleetReport, FleetFailure>
        switch prepared {
        case let .failure(failure):
            var report = await play(FleetAd(plan: failure.plan, timeline: nil, location: "", mediaURL: "", decodeSeconds: 0), onProgress: onProgress)
            report?.error = FleetReport.Failure(kind: failure.error.kind.rawValue, code: failure.error.code.rawValue, message: failure.error.message)
            result = .failure(FleetFailure(error: failure.error, warnings: failure.plan.steps.warnings.map(\.description), report: report))
        case let .success(ad) where ad.locations.contains { admitMedia($0) != nil }:
            let refusal = ad.locations.lazy.compactMap(admitMedia).first!
            result = .failure(FleetFailure(error: SessionError(kind: .usage, code: .undefined, message: refusal), warnings: ad.warnings))
        case let .success(ad):
            if let report = await play(ad, onProgress: onProgress) {
                result = .success(report)
            } else {
                result = .failure(FleetFailure(error: SessionError(kind: .media, code: .mediaFileDisplay, message: "the media did not play"), warnings: ad.warnings))
            }
        }
        if shutsDownEnvironment { await environment.shutdown() }
        return result
    }

    struct PreparationFailure: Error {
        var error: SessionError
        var plan: SessionPlan
    }

    private func prepare() async -> Result<FleetAd, PreparationFailure> {
        if let tracking = configuration.breakTracking, let error = tracking.notRequested { return .failure(tracking.notRequestedFailure(error)) }
        let prepared = await AdPreparation(configuration: configuration.session, environment: environment).prepare(.play)
        let result = await prepareAd(prepared)
        guard let tracking = configuration.breakTracking else { return result }
        return tracking.applied(to: result, prepared: prepared)
    }

    private func prepareAd(_ prepared: PreparedAd) async -> Result<FleetAd, PreparationFailure> {
        if !prepared.pod.isEmpty { return await preparePod(prepared) }
        var plan = prepared.adBreak.turns.first?.plan ?? SessionPlan(steps: [])
        if let failure = prepared.failure { return .failure(PreparationFailure(error: failure, plan: plan)) }
        guard let media = prepared.media else {
            if Task.isCancelled {
                return .failure(PreparationFailure(error: SessionError(kind: .ad, code: .undefined, message: "interrupted while resolving the tag"), plan: plan))
            }
            return .failure(PreparationFailure(error: SessionError(kind: .media, code: .mediaFileDisplay, message: "no media"), plan: plan))
        }
        let (decoded, decodeSeconds) = await decodeOnce(media)
        let timeline: MediaTimeline
        switch decoded {
        case let .success(frames): timeline = frames
        case let .failure(failure):
            plan.failure = failure
            plan.steps.append(.failure(failure, errorTargets: prepared.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [], facts: plan.facts))
            return .failure(PreparationFailure(error: failure, plan: plan))
        }
        var ad = FleetAd(plan: plan, timeline: timeline, location: media.location, mediaURL: media.selection.file.url,
                         decodeSeconds: decodeSeconds)
        ad.streaming = media.streaming
        if let mix = configuration.networkMix {
            if ad.plan.playback?.rules.viewability == .measured {
                // The oracle does not work out how stalls break the runs in view: the sessions say undetermined.
                ad.plan.playback?.rules.viewability = .undetermined
                ad.plan.steps.append(.warning(Finding(.fleetViewabilityUnpredicted, "viewability on simulated networks is not predicted yet: the sessions fire ViewUndetermined (not Viewable or NotViewable)")))
            }
            // One map of the media's bytes; each network of the mix downloads it its own way.
            let location = media.location, opener = environment.media, start = timeline.info.timeline.start, streaming = media.streaming
            let thresholds = configuration.session.network
            do throws(MediaError) {
                let map = try await environment.onMediaExecutor { () throws(MediaError) -> DeliveryMap in
                    try opener.deliveryMap(location, timelineStart: start, streaming: streaming)
                }
                ad.deliveries = mix.shares.map { share in
                    MediaDelivery(profile: share.profile, map: map,
                                  startupBuffer: thresholds?.startupBuffer ?? MediaDelivery.defaultStartupBuffer,
                                  rebuffer: thresholds?.rebuffer ?? MediaDelivery.defaultRebuffer, stallTimeout: nil)
                }
                if map.headerAtEnd { ad.plan.steps.append(.warning(Finding(.mediaMoovAfterMdat, AdPreparation.trailingHeaderWarning(map)))) }
            } catch {
                let failure = SessionError(kind: .media, code: error.vastCode, message: error.description)
                plan.failure = failure
                return .failure(PreparationFailure(error: failure, plan: plan))
            }
        }
        return .success(ad)
    }

    /// Decodes `media` once, all of it: the media is verified (a truncated or corrupt file fails the fleet here) and
    /// its frame timeline is what every session replays. Returns it, or the media error, and the seconds it took.
    private func decodeOnce(_ media: PreparedAd.Media) async -> (Result<MediaTimeline, SessionError>, seconds: Double) {
        var result: Result<MediaTimeline, SessionError> = .failure(SessionError(kind: .media, code: .mediaFileDisplay, message: "not decoded"))
        let elapsed = await environment.networkClock.measure {
            do throws(MediaError) {
                result = .success(try await environment.onMediaExecutor { () throws(MediaError) -> MediaTimeline in
                    try MediaTimeline(decoding: media.source)
                })
            } catch {
                result = .failure(SessionError(kind: .media, code: error.vastCode, message: error.description))
            }
        }
        return (result, elapsed.seconds)
    }

    /// A pod: each ad that plays decoded once and verified (its timeline is what every session replays).
    private func preparePod(_ prepared: PreparedAd) async -> Result<FleetAd, PreparationFailure> {
        let prelude = prepared.adBreak.prelude
        if let failure = prepared.failure {
            // Nothing of the pod plays: every session fires what each of its ads fires when it fails.
            var plan = prelude
            plan.steps += prepared.pod.flatMap(\.plan.steps)
            return .failure(PreparationFailure(error: failure, plan: plan))
        }
        if configuration.networkMix != nil {
            let failure = SessionError(kind: .usage, code: .undefined, message: "--network-mix does not play ad pods yet: add --pod first to play the pod's first ad")
            return .failure(PreparationFailure(error: failure, plan: SessionPlan(steps: prelude.steps, failure: failure)))
        }
        var parts: [AdTurn<FleetMedia>] = []
        var decodeSeconds = 0.0
        for entry in prepared.pod {
            var part = entry.withMedia { _ in FleetMedia?.none }
            if let media = entry.media?.opened, entry.failure == nil {
                let (decoded, seconds) = await decodeOnce(media)
                decodeSeconds += seconds
                switch decoded {
                case let .success(timeline): part.media = FleetMedia(timeline: timeline, location: media.location, streaming: media.streaming)
                case let .failure(failure):
                    // As for a single ad: every session fires the failure to that ad's Error URLs.
                    var plan = prelude
                    plan.failure = failure
                    plan.steps.append(.failure(failure, errorTargets: entry.plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [], facts: plan.facts))
                    return .failure(PreparationFailure(error: failure, plan: plan))
                }
            }
            parts.append(part)
        }
        let first = prepared.pod.lazy.compactMap { $0.failure == nil ? $0.media?.opened : nil }.first
        var ad = FleetAd(plan: prelude, timeline: nil, location: first?.location ?? "", mediaURL: first?.selection.file.url ?? "",
                         decodeSeconds: decodeSeconds)
        ad.pod = parts
        return .success(ad)
    }

    /// Plays every session of the shard; the report, unless the ad failed before its media (then the sessions only
    /// fire what a failed session fires).
    @discardableResult
    private func play(_ prepared: FleetAd, onProgress: @escaping @Sendable (FleetProgress) -> Void) async -> FleetReport? {
        let configuration = self.configuration, environment = self.environment
        let session = configuration.session
        let elapsed = environment.networkClock.stopwatch()

        // The embedded sink, and the transport to it (or to the tag's own URLs). The sink keeps no hit: each is matched
        // to its request as it arrives, and only what is unmatched is kept (`FleetReconciler`).
        var onReceived: (@Sendable (Int) -> Void)?
        if let results = configuration.results { onReceived = { results.append(.received(row: $0)) } }
        let reconciler = FleetReconciler(checkDevice: Self.deviceCheck(session), onReceived: onReceived)
        let connection = await SinkHookup.connect(session, environment: environment, reconciling: reconciler)
        let (sink, routing) = (connection.sink, connection.routing)
        var transport = connection.transport
        var warnings = prepared.warnings
        if let warning = connection.warning { warnings.append(warning) }
        if let rate = configuration.shardRate, let base = transport {
            transport = RateLimitedTransport(base: base, perSecond: rate, clock: environment.networkClock)
        }

        let watch = configuration.abortOn.isEmpty ? nil : FleetAbortWatch(thresholds: configuration.abortOn, clock: environment.networkClock)
        let (targets, tally, dispatchers) = dispatching(prepared, transport: transport, routing: routing, reconciler: sink == nil ? nil : reconciler,
                                                        watch: watch)
        let sessions = configuration.shard.indices(of: configuration.sessions).underestimatedCount
        let progress = FleetProgressReporter(sessions: sessions, clock: environment.networkClock, onProgress: onProgress)
        await playSessions(prepared, tally: tally, dispatchers: dispatchers, progress: progress, watch: watch)
        // Aborted: the beacons in flight get a short while, not the whole drain.
        let drain = watch?.breach == nil ? session.beaconDrain : min(session.beaconDrain, Self.abortDrain)
        await withTaskGroup(of: Void.self) { group in
            for dispatcher in dispatchers {
                group.addTask { await dispatcher.drainAtSessionEnd(waitingAtMost: drain) }
            }
        }
        progress.report(tally, final: true)
        let seconds = elapsed().seconds

        await sink?.stop()
        var report: FleetReport?
        if !prepared.pod.isEmpty {
            report = await podReport(prepared, targets: targets, tally: tally, seconds: seconds, warnings: warnings)
        } else if let timeline = prepared.timeline, let rules = prepared.plan.playback?.rules, let plan = prepared.plan.playback?.plan {
            report = await self.report(prepared, timeline: timeline, rules: rules, plan: plan, targets: targets.map(\.target), tally: tally,
                                       seconds: seconds, warnings: warnings)
        } else if prepared.plan.failure != nil {
            // The ad cannot play: every session fired what comes before playback (the ad's error to its Error URLs).
            report = await failureReport(prepared, targets: targets.map(\.target), tally: tally, seconds: seconds, warnings: warnings)
        }
        report?.checks.deviceFields = sink == nil ? nil : reconciler.deviceFields
        report?.aborted = watch?.breach.map { FleetReport.Abort(threshold: $0.verdict.threshold.text, message: $0.verdict.message, seconds: $0.seconds) }
        return report
    }

    /// Server-side mode: whether a hit at the sink carried the device's X-Device-* fields (VAST 4.3 §1.1.3); nil
    /// otherwise.
    static func deviceCheck(_ session: SessionConfiguration) -> (@Sendable (SinkHit) -> Bool)? {
        guard let insertion = session.serverSide else { return nil }
        let expected = insertion.expectedAtSink(deviceUserAgent: session.userAgent)
        return { $0.device == expected }
    }

    /// The fleet's tracking URLs (with the reward callback, counted like one, after them), its tally (shown on the live
    /// metrics, when asked for), and one dispatcher per session executor (event loop), each with its share of the
    /// requests in flight: the sessions of a loop and the answers on it never wait on another thread's lock. The tally
    /// holds each one's sessions back on its own share of 4 x the requests in flight.
    private func dispatching(_ prepared: FleetAd, transport: (any BeaconTransport)?, routing: SinkRouting?, reconciler: FleetReconciler?,
                             watch: FleetAbortWatch?)
        -> (targets: [(target: TrackingPlan.Target, ad: Int?)], tally: FleetTally, dispatchers: [BeaconDispatcher]) {
        let session = configuration.session, environment = self.environment
        let targets = Self.targets(of: prepared, withErrors: configuration.networkMix != nil)
        let keys = targets.map { FleetTally.key(event: $0.target.event, source: $0.target.source.description, template: $0.target.url, ad: $0.ad) }
            + (Self.rewardCallbackRow(of: prepared, session: session).map { [FleetTally.key(event: $0.event, source: $0.source, template: $0.template, ad: $0.ad)] } ?? [])
        let shares = Self.shares(of: session.beaconPolicy.maxConcurrent, among: max(1, environment.sessionExecutors.count))
        let tally = FleetTally(keys: keys, limit: 4 * session.beaconPolicy.maxConcurrent, holds: shares.count, reconciler: reconciler,
                               results: configuration.results, elapsed: environment.networkClock.stopwatch(),
                               networkNames: configuration.networkMix?.shares.map(\.profile.name) ?? []) { url in
            routing?.routedTarget(of: url)
        }
        configuration.metrics?.attach(FleetMetricsBoard.Fleet(tally: tally, rows: Self.rowLabels(of: prepared, targets: targets, session: session),
                                                              sessions: configuration.shard.indices(of: configuration.sessions).underestimatedCount))
        let dispatchers = shares.enumerated().map { hold, share in
            var policy = session.beaconPolicy
            policy.maxConcurrent = share
            return BeaconDispatcher(transport: transport, policy: policy, clock: environment.networkClock, wallClock: environment.wallClock,
                                    recordingNow: { record, countedAt in
                                        tally.record(record, countedAt: countedAt, hold: hold)
                                        watch?.beaconAnswered(tally)
                                    })
        }
        return (targets, tally, dispatchers)
    }

    /// Each row of the tally's labels on live metrics: its tracking URL's event and source (the reward callback's last).
    static func rowLabels(of prepared: FleetAd, targets: [(target: TrackingPlan.Target, ad: Int?)], session: SessionConfiguration)
        -> [(event: String, source: String)] {
        targets.map { ($0.target.event, $0.target.source.description) }
            + (rewardCallbackRow(of: prepared, session: session).map { [($0.event, $0.source)] } ?? [])
    }

    /// `total` requests in flight split among `count` dispatchers as evenly as they go, each at least one: exactly
    /// `total` in all (`--beacon-concurrency` is a bound), over fewer dispatchers when `total` is below `count`.
    static func shares(of total: Int, among count: Int) -> [Int] {
        let count = max(1, min(count, total))
        return (0..<count).map { total / count + ($0 < total % count ? 1 : 0) }
    }

}

