import Primitives
import BeaconSink
import Foundation
import Histogram
import PlayerEngine
import TrackingBeacons
import VAST

/// How a fleet runs: the session every viewer starts from (tag, media choice, device, beacon policy, sink), how many
/// viewers, how many at once, what they do, and which shard of them this process runs.
public struct FleetConfiguration: Sendable {
    /// The tag, `--map`, media criteria, device macros, beacon policy, sink, `--seed` and `--now`. Each session gets
    /// its own seed for `[CACHEBUSTING]`, derived from this one and its index.
    public var session: SessionConfiguration
    /// Sessions in the whole fleet, all shards together.
    public var sessions: Int
    /// Sessions played at once.
    public var concurrency = 16
    /// What share of the sessions does what; each session's scenario kind is drawn from it.
    public var mix: FleetMix
    /// Beacons per second over the whole fleet, all shards together (each shard sends `shardRate`); nil = as fast
    /// as the server answers.
    public var rate: Double?
    /// Which part of the fleet this process runs; `.whole` by default.
    public var shard = FleetShard.whole
    /// Decode the media in every session (FFmpeg per session) instead of replaying the one verified decode.
    public var decodeEach = false
    /// Viewers on simulated networks (`--network-mix`): each session's profile is drawn from it, with the thresholds
    /// of `session.network` (or the defaults). nil: every session's media arrives as fast as it is read.
    public var networkMix: NetworkMix?

    /// This shard's part of `rate`: the fleet's rate divided by the shard count, so N shards together send `rate`.
    public var shardRate: Double? { rate.map { $0 / Double(shard.count) } }

    /// A fleet of `sessions` sessions of `session` with scenarios drawn from `mix`, 16 at once, at no rate limit, as
    /// one shard.
    public init(session: SessionConfiguration, sessions: Int, mix: FleetMix) {
        self.session = session
        self.sessions = sessions
        self.mix = mix
    }
}

/// Where a fleet is at, for a progress bar.
public struct FleetProgress: Sendable {
    /// Sessions finished so far.
    public var sessionsDone: Int
    /// Sessions to play in all.
    public var sessions: Int
    /// Beacons sent so far.
    public var beaconsSent: Int
    /// Beacons answered so far.
    public var beaconsAnswered: Int
    /// Seconds elapsed on the network clock since the fleet started.
    public var seconds: Double
}

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
            result = .failure(FleetFailure(error: failure.error, warnings: failure.plan.steps.warnings, report: report))
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
        await environment.shutdown()
        return result
    }

    /// The one resolution and decode every session shares.
    struct FleetAd: Sendable {
        var plan: SessionPlan
        /// Every frame of one verified decode; nil when the ad failed before its media played.
        var timeline: MediaTimeline?
        var location: String
        var mediaURL: String
        var decodeSeconds: Double
        /// Under `--network-mix`, for each share of the mix: that network's download of the media.
        var deliveries: [MediaDelivery] = []
        /// An ad pod: every ad it tries, in play order; `plan` is then what fires before the pod (empty for a single
        /// ad).
        var pod: [PodPart] = []
        /// How an HLS playlist is opened again (`--decode-each`): the variant the verified decode played.
        var streaming: StreamingOptions? = nil
        var warnings: [String] { plan.steps.warnings + pod.flatMap { $0.plan.steps.warnings } }
        /// Where each media file a session plays was opened from.
        var locations: [String] { pod.isEmpty ? [location] : pod.compactMap { $0.timeline == nil ? nil : $0.location } }

        /// One ad of a pod: what it fires and plays, and its verified decode when it plays.
        struct PodPart: Sendable {
            var ad: BreakAd
            var plan: SessionPlan
            var substitute: Bool
            var cut: Bool
            /// Every frame of its one verified decode; nil when it does not play.
            var timeline: MediaTimeline?
            var location: String
            var streaming: StreamingOptions? = nil
            var plays: Bool { timeline != nil && plan.failure == nil }
        }

        /// The plan of a session on network `share`: its download, or (when the media is not ready in time) the
        /// 402 it fails with before playing, fired to the ad's Error URLs.
        func plan(onNetwork share: Int?, thresholds: SessionConfiguration.NetworkConditions?) -> SessionPlan {
            guard let share, deliveries.indices.contains(share) else { return plan }
            let delivery = deliveries[share]
            var plan = self.plan
            let timeout = thresholds?.mediaTimeout ?? SessionConfiguration.NetworkConditions.defaultMediaTimeout
            if delivery.isReady(within: timeout) {
                plan.delivery = delivery
                return plan
            }
            let failure = SessionError(kind: .media, code: .mediaFileTimeout,
                                       message: "media not ready to play within the media timeout of \(timeout.millisecondText) s on network \(delivery.profile)")
            plan.failure = failure
            plan.steps.append(.failure(failure, errorTargets: plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? []))
            return plan
        }
    }

    private struct PreparationFailure: Error {
        var error: SessionError
        var plan: SessionPlan
    }

    private func prepare() async -> Result<FleetAd, PreparationFailure> {
        let prepared = await AdPreparation(configuration: configuration.session, environment: environment).prepare(.play)
        if !prepared.pod.isEmpty { return await preparePod(prepared) }
        var plan = prepared.sessionPlan
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
            plan.steps.append(.failure(failure, errorTargets: prepared.ad?.errorURLs.map(AdPreparation.errorTarget) ?? []))
            return .failure(PreparationFailure(error: failure, plan: plan))
        }
        var ad = FleetAd(plan: plan, timeline: timeline, location: media.location, mediaURL: media.selection.file.url,
                         decodeSeconds: decodeSeconds)
        ad.streaming = media.streaming
        if let mix = configuration.networkMix {
            if ad.plan.rules?.viewability == .measured {
                // The oracle does not work out how stalls break the runs in view: the sessions say undetermined.
                ad.plan.rules?.viewability = .undetermined
                ad.plan.steps.append(.warning("viewability on simulated networks is not predicted yet: the sessions fire ViewUndetermined (not Viewable or NotViewable)"))
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
                if map.headerAtEnd { ad.plan.steps.append(.warning(AdPreparation.trailingHeaderWarning(map))) }
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
        let prelude = SessionPlan(steps: prepared.steps, failure: prepared.failure, ad: nil, plan: nil, rules: nil)
        if let failure = prepared.failure {
            // Nothing of the pod plays: every session fires what each of its ads fires when it fails.
            var plan = prelude
            plan.steps += prepared.pod.flatMap(\.plan.steps)
            return .failure(PreparationFailure(error: failure, plan: plan))
        }
        if configuration.networkMix != nil {
            let failure = SessionError(kind: .usage, code: .undefined, message: "--network-mix does not play ad pods yet: add --pod first to play the pod's first ad")
            return .failure(PreparationFailure(error: failure, plan: SessionPlan(steps: prepared.steps, failure: failure)))
        }
        var parts: [FleetAd.PodPart] = []
        var decodeSeconds = 0.0
        for entry in prepared.pod {
            var part = FleetAd.PodPart(ad: entry.ad, plan: entry.plan, substitute: entry.substitute, cut: entry.cut, timeline: nil,
                                       location: entry.media?.location ?? "")
            part.streaming = entry.media?.streaming
            if let media = entry.media, entry.failure == nil {
                let (decoded, seconds) = await decodeOnce(media)
                decodeSeconds += seconds
                switch decoded {
                case let .success(timeline): part.timeline = timeline
                case let .failure(failure):
                    // As for a single ad: every session fires the failure to that ad's Error URLs.
                    var plan = prelude
                    plan.failure = failure
                    plan.steps.append(.failure(failure, errorTargets: entry.plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? []))
                    return .failure(PreparationFailure(error: failure, plan: plan))
                }
            }
            parts.append(part)
        }
        let first = prepared.pod.first { $0.media != nil && $0.failure == nil }
        var ad = FleetAd(plan: prelude, timeline: nil, location: first?.media?.location ?? "", mediaURL: first?.media?.selection.file.url ?? "",
                         decodeSeconds: decodeSeconds)
        ad.pod = parts
        return .success(ad)
    }

    /// Every tracking URL a session of this ad can fire, in a stable order, each once: the prelude's (failed chains'
    /// Error URLs, verificationNotExecuted, the ad's error) first, then each playback event's.
    /// A fleet's tracking URLs, each with the pod place of the ad it belongs to (nil for a single ad and for what
    /// fires before a pod): a pod's are its prelude's, then each ad's in play order.
    static func targets(of ad: FleetAd, withErrors: Bool = false) -> [(target: TrackingPlan.Target, ad: Int?)] {
        guard !ad.pod.isEmpty else { return targets(of: ad.plan, withErrors: withErrors).map { ($0, nil) } }
        var seen: Set<FleetTally.Key> = []
        var all = targets(of: ad.plan).map { (target: $0, ad: Int?.none) }
        for part in ad.pod {
            for target in targets(of: part.plan) where seen.insert(FleetTally.key(event: target.event, source: target.source.description, template: target.url, ad: part.ad.index)).inserted {
                all.append((target, part.ad.index))
            }
        }
        return all
    }

    /// The report row of the reward callback (`--reward-callback`): sent by the ad that grants the reward (a pod's
    /// last ad), nil when none is configured or the ad grants no reward.
    static func rewardCallbackRow(of ad: FleetAd, session: SessionConfiguration) -> (event: String, source: String, template: String, ad: Int?)? {
        guard let callback = session.rewardCallback else { return nil }
        if ad.pod.isEmpty {
            return ad.plan.rules?.reward == nil ? nil : ("rewardCallback", "reward callback", callback.url, nil)
        }
        let playing = ad.pod.filter(\.plays)
        guard let last = playing.last, playing.contains(where: { $0.plan.rules?.reward != nil }) else { return nil }
        return ("rewardCallback", "reward callback", callback.url, last.ad.index)
    }

    /// The scenario facts of the ads that play: one ad, or each ad of a pod that plays, by place.
    static func scenarioFacts(of ad: FleetAd) -> [(place: Int?, facts: FleetScenario.Facts)] {
        guard !ad.pod.isEmpty else {
            return [(nil, FleetScenario.Facts(duration: ad.timeline?.info.exactDuration ?? .zero, skipOffset: ad.plan.rules?.skipOffset))]
        }
        return ad.pod.filter(\.plays).map { part in
            (part.ad.index, FleetScenario.Facts(duration: part.timeline?.info.exactDuration ?? .zero, skipOffset: part.plan.rules?.skipOffset))
        }
    }

    static func targets(of ad: SessionPlan, withErrors: Bool = false) -> [TrackingPlan.Target] {
        var seen: Set<FleetTally.Key> = []
        var all: [TrackingPlan.Target] = []
        func add(_ target: TrackingPlan.Target) {
            if seen.insert(FleetTally.key(event: target.event, source: target.source.description, template: target.url)).inserted { all.append(target) }
        }
        for beacons in ad.steps.preludeBeacons { beacons.targets.forEach(add) }
        guard let plan = ad.plan else { return all }
        // On simulated networks a session whose media is not ready in time fires the ad's Error URLs (402).
        if withErrors { ad.ad?.errorURLs.map(AdPreparation.errorTarget).forEach(add) }
        for name in PlaybackEvent.Name.allCases {
            let events: [PlaybackEvent] = switch name {
            case .progress: plan.progressOffsets.map { PlaybackEvent(name: name, playhead: $0, clock: $0, offset: $0) }
            case .iconShown, .iconHidden, .iconClick:
                plan.icons.indices.map { index in
                    var event = PlaybackEvent(name: name, playhead: .zero, clock: .zero)
                    event.icon = index
                    return event
                }
            default: [PlaybackEvent(name: name, playhead: .zero, clock: .zero)]
            }
            for event in events { plan.targets(for: event).forEach(add) }
        }
        return all
    }

    /// Plays every session of the shard; the report, unless the ad failed before its media (then the sessions only
    /// fire what a failed session fires).
    @discardableResult
    private func play(_ prepared: FleetAd, onProgress: @escaping @Sendable (FleetProgress) -> Void) async -> FleetReport? {
        let configuration = self.configuration, environment = self.environment
        let session = configuration.session
        let elapsed = environment.networkClock.stopwatch()

        // The embedded sink, and the transport to it (or to the tag's own URLs).
        let connection = await SinkHookup.connect(session, base: environment.beaconTransport)
        let (sink, routing) = (connection.sink, connection.routing)
        var transport = connection.transport
        var warnings = prepared.warnings
        if let warning = connection.warning { warnings.append(warning) }
        if let rate = configuration.shardRate, let base = transport {
            transport = RateLimitedTransport(base: base, perSecond: rate, clock: environment.networkClock)
        }

        let targets = Self.targets(of: prepared, withErrors: configuration.networkMix != nil)
        // The reward callback, when configured: counted like a tracking URL, after them.
        let keys = targets.map { FleetTally.key(event: $0.target.event, source: $0.target.source.description, template: $0.target.url, ad: $0.ad) }
            + (Self.rewardCallbackRow(of: prepared, session: session).map { [FleetTally.key(event: $0.event, source: $0.source, template: $0.template, ad: $0.ad)] } ?? [])
        let route = routing
        // One dispatcher per session executor (event loop), each with its share of the requests in flight: the
        // sessions of a loop and the answers on it never wait on another thread's lock. The tally holds each one's
        // sessions back on its own share of 4 x the requests in flight.
        let executors = environment.sessionExecutors
        let shares = Self.shares(of: session.beaconPolicy.maxConcurrent, among: max(1, executors.count))
        let tally = FleetTally(keys: keys, limit: 4 * session.beaconPolicy.maxConcurrent, holds: shares.count) { url in route?.routedTarget(of: url) }
        let dispatchers = shares.enumerated().map { hold, share in
            var policy = session.beaconPolicy
            policy.maxConcurrent = share
            return BeaconDispatcher(transport: transport, policy: policy, clock: environment.networkClock, wallClock: environment.wallClock,
                                    recordingNow: { tally.record($0, hold: hold) })
        }
        let wallStart = session.now ?? environment.wallClock()
        let facts = Self.scenarioFacts(of: prepared)
        let macros = BeaconPlanner.macros(for: session), identity = session.identity
        let indices = configuration.shard.indices(of: configuration.sessions)
        let sessions = indices.underestimatedCount
        let progress = FleetProgressReporter(sessions: sessions, clock: environment.networkClock, onProgress: onProgress)

        // `concurrency` workers, each playing one session after another, the next index not yet taken (in index
        // order, as slots free): no task per session, and no session's end waking a parent on another thread. Worker
        // w runs on executor w mod n and sends through dispatcher w mod d (the same loop's, unless there are fewer
        // dispatchers than loops: fewer requests in flight than loops).
        let taken = Locked(indices.makeIterator())
        await withTaskCancellationHandler { await withTaskGroup(of: Void.self) { group in
            for worker in 0..<min(configuration.concurrency, sessions) {
                let hold = worker % dispatchers.count, dispatcher = dispatchers[hold]
                group.addTask(executorPreference: executors.isEmpty ? nil : executors[worker % executors.count]) {
                    // Interrupted: no new session starts (those under way end with the cancellation). A session
                    // starts once its room fits in its dispatcher's share (`FleetTally.admitSession`), and gives back
                    // what its beacons did not take when it ends.
                    while !Task.isCancelled {
                        let room = await tally.admitSession(hold: hold)
                        defer { tally.endSession(room) }
                        guard !Task.isCancelled, let index = taken.withLock({ $0.next() }) else { break }
                        let scenario = FleetScenario.draw(index: index, seed: session.seed, mix: configuration.mix, pod: facts)
                        let network = configuration.networkMix?.draw(index: index, seed: session.seed)
                        await Self.playOne(scenario, network: network, prepared: prepared, configuration: configuration, environment: environment,
                                           wallStart: wallStart, macros: macros, identity: identity, tally: tally, room: room, dispatcher: dispatcher)
                        progress.report(tally)
                        // A replayed session never waits: without this the worker would play one session after
                        // another in one go, and its event loop would read no answer (and time beacons out) meanwhile.
                        await Task.yield()
                    }
                }
            }
        } } onCancel: {
            // A signal: workers waiting for room to start a session (or a beacon past the ceiling) stop waiting.
            tally.stop()
        }
        await withTaskGroup(of: Void.self) { group in
            for dispatcher in dispatchers {
                group.addTask { await dispatcher.drainAtSessionEnd(waitingAtMost: session.beaconDrain) }
            }
        }
        progress.report(tally, final: true)
        let seconds = elapsed().seconds

        let hits = sink?.hits().map(\.target)
        await sink?.stop()
        if !prepared.pod.isEmpty {
            return await podReport(prepared, targets: targets, tally: tally, hits: hits, seconds: seconds, warnings: warnings)
        }
        guard let timeline = prepared.timeline, let rules = prepared.plan.rules, let plan = prepared.plan.plan else {
            // The ad cannot play: every session fired what comes before playback (the ad's error to its Error URLs).
            return prepared.plan.failure == nil ? nil
                : await failureReport(prepared, targets: targets.map(\.target), tally: tally, hits: hits, seconds: seconds, warnings: warnings)
        }
        return await report(prepared, timeline: timeline, rules: rules, plan: plan, targets: targets.map(\.target), tally: tally, hits: hits,
                            seconds: seconds, warnings: warnings)
    }

    /// `total` requests in flight split among `count` dispatchers as evenly as they go, each at least one: exactly
    /// `total` in all (`--beacon-concurrency` is a bound), over fewer dispatchers when `total` is below `count`.
    static func shares(of total: Int, among count: Int) -> [Int] {
        let count = max(1, min(count, total))
        return (0..<count).map { total / count + ($0 < total % count ? 1 : 0) }
    }

    /// One viewer: its own virtual clock, beacon step (its own `[CACHEBUSTING]` stream) and tracking gate, through
    /// the session core. `macros` and `identity`: the fleet's `BeaconPlanner.macros(for:)` and
    /// `SessionConfiguration.identity`, the same for every viewer.
    private static func playOne(_ scenario: FleetScenario, network: Int?, prepared: FleetAd, configuration: FleetConfiguration,
                                environment: SessionEnvironment, wallStart: Int64, macros: [String: String], identity: UInt64, tally: FleetTally,
                                room: FleetTally.Room, dispatcher: BeaconDispatcher) async {
        let session = configuration.session
        let seed = session.seed ^ (UInt64(truncatingIfNeeded: scenario.index) &* 0x9E37_79B9_7F4A_7C15)
        var step = BeaconStep(configuration: session, seed: seed, wallStart: wallStart, macros: macros, identity: identity)
        let media = environment.media, location = prepared.location, threads = session.decoderThreads
        // A session that decodes for itself: the timeline is the one the fleet's verified decode measured.
        var options = MediaOpenOptions(decoderThreads: threads)
        options.knownTimeline = prepared.timeline?.info.timeline
        options.streaming = prepared.streaming
        let open: () throws(MediaError) -> any MediaSource = { [options] () throws(MediaError) in
            try media.open(location, options: options)
        }
        var source: (any MediaSource)?
        if let timeline = prepared.timeline {
            if configuration.decodeEach, let decoded = try? await environment.onMediaExecutor(open) {
                source = decoded
            } else {
                source = TimelineMediaSource(timeline)
            }
        }
        let outputs = SessionCore.Outputs(
            report: { record in if case let .event(event) = record { tally.event(event) } },
            submit: { beacon in await dispatcher.submit(beacon, countedAt: await tally.admit(beacon, in: room)) })
        // A replayed timeline never blocks: only a session that decodes for real needs the media executor's threads.
        var sessionEnvironment = environment
        if !configuration.decodeEach { sessionEnvironment.mediaExecutor = nil }
        let result: SessionCore.Result
        if prepared.pod.isEmpty {
            let plan = prepared.plan(onNetwork: network, thresholds: session.network)
            result = await SessionCore(prepared: plan, environment: sessionEnvironment).run(
                source: source, reopen: prepared.timeline.map { timeline in { TimelineMediaSource(timeline) } },
                script: scenario.script, clock: VirtualClock(), step: &step, outputs: outputs)
        } else {
            var ads: [SessionCore.PodAd] = []
            for part in prepared.pod {
                var ad = SessionCore.PodAd(ad: part.ad, plan: part.plan, substitute: part.substitute, cut: part.cut, duration: part.timeline?.info.exactDuration)
                if let timeline = part.timeline {
                    var options = MediaOpenOptions(decoderThreads: threads)
                    options.knownTimeline = timeline.info.timeline
                    options.streaming = part.streaming
                    let location = part.location
                    let decoded: (any MediaSource)? = configuration.decodeEach
                        ? try? await environment.onMediaExecutor { [options] () throws(MediaError) in try media.open(location, options: options) } : nil
                    ad.source = decoded ?? TimelineMediaSource(timeline)
                    ad.reopen = { TimelineMediaSource(timeline) }
                }
                ads.append(ad)
            }
            result = await SessionCore(prepared: prepared.plan, environment: sessionEnvironment).runPod(
                ads, script: scenario.script, clock: VirtualClock(), step: &step, outputs: outputs)
        }
        tally.finished(scenario, network: network.map { configuration.networkMix!.shares[$0].profile.name }, report: result.playback)
    }
}

/// Why a fleet could not play at all: the ad's or the media's error (with its VAST code), and the warnings before it.
public struct FleetFailure: Error, Sendable {
    /// The ad's or the media's error, with its VAST code.
    public var error: SessionError
    /// The warnings reported before the error.
    public var warnings: [String]
    /// What the sessions did all the same (each fired the Error URLs a single session fires), with `error` set: the
    /// report `--report` and `--junit` write. Nil when no session ran (a usage error, an output over the media).
    public var report: FleetReport? = nil
}
