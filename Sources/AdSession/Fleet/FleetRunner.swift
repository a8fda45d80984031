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
    public var sessions: Int
    /// Sessions played at once.
    public var concurrency = 16
    public var mix: FleetMix
    /// Beacons per second over the whole fleet; nil = as fast as the server answers.
    public var rate: Double?
    public var shard = FleetShard.whole
    /// Decode the media in every session (FFmpeg per session) instead of replaying the one verified decode.
    public var decodeEach = false

    public init(session: SessionConfiguration, sessions: Int, mix: FleetMix) {
        self.session = session
        self.sessions = sessions
        self.mix = mix
    }
}

/// Where a fleet is at, for a progress bar.
public struct FleetProgress: Sendable {
    public var sessionsDone: Int
    public var sessions: Int
    public var beaconsSent: Int
    public var beaconsAnswered: Int
    public var seconds: Double
}

/// Plays a fleet: resolves the tag and opens, decodes and verifies the media once, then plays every session of its
/// shard on its own virtual clock from its scenario, sending every beacon over real HTTP (or to the embedded sink),
/// and reports expected against sent against received for each tracking URL.
public struct FleetRunner: Sendable {
    public let configuration: FleetConfiguration

    public init(configuration: FleetConfiguration) { self.configuration = configuration }

    /// Runs the fleet. Returns the report, or the error that kept any session from playing (no ad, no playable
    /// media), with the warnings met on the way.
    public func run(onProgress: @escaping @Sendable (FleetProgress) -> Void = { _ in }) async -> Result<FleetReport, FleetFailure> {
        let session = configuration.session
        let http = HTTPTagFetcher(userAgent: session.userAgent, maxBytes: session.resolver.parserLimits.maxBytes)
        let prepared = await prepare(http: http)
        await http.shutdown()
        switch prepared {
        case let .failure(failure): return .failure(failure)
        case let .success(ad): return .success(await play(ad, onProgress: onProgress))
        }
    }

    /// The one resolution and decode every session shares.
    struct PreparedAd: Sendable {
        var ad: ResolvedAd
        var plan: TrackingPlan
        var rules: PlaybackRules
        var timeline: MediaTimeline
        var location: String
        var mediaURL: String
        var assetURI: String
        var decodeSeconds: Double
        var warnings: [String]
    }

    private func prepare(http: HTTPTagFetcher) async -> Result<PreparedAd, FleetFailure> {
        let session = configuration.session
        let loader = TagLoader(configuration: session, http: http)
        let (tagURL, resolution) = await loader.resolve()
        var warnings = resolution.warnings.map { String(describing: $0) }
        guard let ad = resolution.defaultAd, let linear = ad.linear else {
            let error = resolution.noAdError ?? VASTError(.noAdAfterWrapper, "no playable linear ad")
            let kind: SessionError.Kind = (400..<500).contains(error.code.rawValue) ? .media : .ad
            return .failure(FleetFailure(error: SessionError(kind: kind, code: error.code.rawValue, message: error.message), warnings: warnings))
        }
        let inLineTagURL = loader.inLineTagURL(of: ad, tagURL: tagURL)
        let (opening, skipped) = MediaOpener(mappings: session.mappings, decoderThreads: session.decoderThreads)
            .open(linear.mediaFiles, criteria: session.mediaCriteria, inLineTagURL: inLineTagURL)
        warnings += skipped
        let opened: MediaOpener.Opened
        switch opening {
        case let .success(file): opened = file
        case let .failure(error): return .failure(FleetFailure(error: error, warnings: warnings))
        }
        // Decode once, all of it: the media is verified (a truncated or corrupt file fails the fleet here) and its
        // frame timeline is what every session replays.
        let clock = ContinuousClock()
        let started = clock.now
        let timeline: MediaTimeline
        do {
            timeline = try MediaTimeline(decoding: opened.source)
        } catch {
            return .failure(FleetFailure(error: SessionError(kind: .media, code: error.vastCode, message: error.description), warnings: warnings))
        }
        let decodeSeconds = started.duration(to: clock.now).seconds
        let duration = timeline.info.exactDuration
        if let warning = AdSessionRunner.durationWarning(declared: linear.duration, media: duration) { warnings.append(warning) }
        let plan = TrackingPlan(ad: ad, duration: duration)
        let rules = AdSessionRunner.rules(for: ad, linear: linear, plan: plan, duration: duration, configuration: session)
        return .success(PreparedAd(ad: ad, plan: plan, rules: rules, timeline: timeline, location: opened.location,
                                   mediaURL: opened.selection.file.url,
                                   assetURI: BeaconPlanner.assetURI(opened.selection.file.url, inLineTagURL: inLineTagURL),
                                   decodeSeconds: decodeSeconds, warnings: warnings))
    }

    /// Every tracking URL a session of this ad can fire, in a stable order, each once.
    static func targets(of plan: TrackingPlan) -> [TrackingPlan.Target] {
        var seen: Set<String> = []
        var all: [TrackingPlan.Target] = []
        for name in PlaybackEvent.Name.allCases {
            let events = name == .progress
                ? plan.progressOffsets.map { PlaybackEvent(name: name, playhead: $0, clock: $0, offset: $0) }
                : [PlaybackEvent(name: name, playhead: .zero, clock: .zero)]
            for event in events {
                for target in plan.targets(for: event) {
                    let key = FleetTally.key(event: target.event, source: target.source.description, template: target.url)
                    if seen.insert(key).inserted { all.append(target) }
                }
            }
        }
        return all
    }

    private func play(_ prepared: PreparedAd, onProgress: @escaping @Sendable (FleetProgress) -> Void) async -> FleetReport {
        let configuration = self.configuration
        let session = configuration.session
        let clock = ContinuousClock()
        let started = clock.now

        // The embedded sink, and the transport to it (or to the tag's own URLs).
        var sink: BeaconSink?
        var routing: SinkRouting?
        let http = session.dryRun ? nil : HTTPBeaconTransport(userAgent: session.userAgent, connectTimeout: session.beaconPolicy.timeout)
        var transport: (any BeaconTransport)? = http
        var warnings = prepared.warnings
        if let scope = session.sink, let http {
            do {
                let hookup = try await SinkHookup.start(scope: scope, faults: session.sinkFaults, http: http)
                (sink, routing, transport) = (hookup.sink, hookup.routing, hookup.transport)
            } catch {
                transport = SinkHookup.withoutSink(scope: scope, base: http)
                warnings.append(SinkHookup.unavailable(error))
            }
        }
        if let rate = configuration.rate, let base = transport { transport = RateLimitedTransport(base: base, perSecond: rate) }

        let targets = Self.targets(of: prepared.plan)
        let keys = targets.map { FleetTally.key(event: $0.event, source: $0.source.description, template: $0.url) }
        let route = routing
        let tally = FleetTally(keys: keys, limit: 4 * session.beaconPolicy.maxConcurrent) { url in
            guard let route, route.routes(url) else { return nil }
            return SinkRouting.target(of: url)
        }
        let dispatcher = BeaconDispatcher(transport: transport, policy: session.beaconPolicy,
                                          wallClock: { Int64(Date().timeIntervalSince1970 * 1000) }) { await tally.record($0) }
        let wallStart = session.now ?? Int64(Date().timeIntervalSince1970 * 1000)
        let facts = FleetScenario.Facts(duration: prepared.timeline.info.exactDuration, skipOffset: prepared.rules.skipOffset)

        // The progress reporter: a few times a second, on the wall clock.
        let reporter = Task {
            while !Task.isCancelled {
                onProgress(await Self.progress(tally, sessions: configuration.shard.indices(of: configuration.sessions).underestimatedCount, since: started))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }

        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for index in configuration.shard.indices(of: configuration.sessions) {
                if running == configuration.concurrency {
                    await group.next()
                    running -= 1
                }
                let scenario = FleetScenario.draw(index: index, seed: session.seed, mix: configuration.mix, facts: facts)
                group.addTask {
                    await Self.playOne(scenario, prepared: prepared, configuration: configuration, wallStart: wallStart,
                                       tally: tally, dispatcher: dispatcher)
                }
                running += 1
            }
        }
        await dispatcher.finish(waitingAtMost: session.beaconDrain)
        reporter.cancel()
        onProgress(await Self.progress(tally, sessions: configuration.shard.indices(of: configuration.sessions).underestimatedCount, since: started))
        let seconds = started.duration(to: clock.now).seconds

        let hits = sink?.hits().map(\.target)
        await sink?.stop()
        await http?.shutdown()
        return await report(prepared, targets: targets, tally: tally, hits: hits, seconds: seconds, warnings: warnings)
    }

    private static func progress(_ tally: FleetTally, sessions: Int, since started: ContinuousClock.Instant) async -> FleetProgress {
        FleetProgress(sessionsDone: await tally.sessionsDone, sessions: sessions, beaconsSent: await tally.beaconsSent,
                      beaconsAnswered: await tally.beaconsAnswered, seconds: started.duration(to: .now).seconds)
    }

    /// One viewer: its own virtual clock, planner (its own `[CACHEBUSTING]` stream) and tracking gate.
    private static func playOne(_ scenario: FleetScenario, prepared: PreparedAd, configuration: FleetConfiguration, wallStart: Int64,
                                tally: FleetTally, dispatcher: BeaconDispatcher) async {
        var sessionConfiguration = configuration.session
        sessionConfiguration.seed = configuration.session.seed ^ (UInt64(truncatingIfNeeded: scenario.index) &* 0x9E37_79B9_7F4A_7C15)
        var planner = BeaconPlanner(configuration: sessionConfiguration, wallStart: wallStart)
        planner.begin(prepared.ad)
        planner.assetURI = prepared.assetURI
        var gate = TrackingGate(repeatTracking: configuration.session.repeatTracking, replayTracking: configuration.session.replayTracking)
        let source: any MediaSource
        if configuration.decodeEach, let decoded = try? FFmpegMediaSource(location: prepared.location,
                                                                             options: MediaOpenOptions(decoderThreads: configuration.session.decoderThreads)) {
            source = decoded
        } else {
            source = TimelineMediaSource(prepared.timeline)
        }
        let engine = PlaybackEngine(configuration: .init(rules: prepared.rules))
        var report: PlaybackReport?
        do {
            report = try await engine.play(source, script: scenario.script, on: VirtualClock()) { event in
                await tally.event(event)
                if event.name == .mute { planner.muted = true }
                if event.name == .unmute { planner.muted = false }
                guard gate.fires(event) else { return }
                for target in prepared.plan.targets(for: event) {
                    let (record, _) = planner.plan(target, playhead: event.playhead, clock: event.clock)
                    await tally.admit(record)
                    await dispatcher.submit(record)
                }
            }
        } catch {
            report = error.report
        }
        await tally.finished(scenario, report: report)
    }

    private func report(_ prepared: PreparedAd, targets: [TrackingPlan.Target], tally: FleetTally, hits: [String]?, seconds: Double,
                        warnings: [String]) async -> FleetReport {
        let configuration = self.configuration
        let facts = FleetOracle.Facts(duration: prepared.timeline.info.exactDuration, progressOffsets: prepared.rules.progressOffsets,
                                      skipOffset: prepared.rules.skipOffset, hasEndCard: prepared.rules.hasEndCard,
                                      endCardAfterSkip: prepared.rules.endCardAfterSkip, hasClickThrough: prepared.rules.hasClickThrough)
        let oracle = FleetOracle(facts: facts)
        let scenarioFacts = FleetScenario.Facts(duration: facts.duration, skipOffset: facts.skipOffset)
        var expectedEvents: [FleetOracle.Event: Int] = [:]
        for index in configuration.shard.indices(of: configuration.sessions) {
            let scenario = FleetScenario.draw(index: index, seed: configuration.session.seed, mix: configuration.mix, facts: scenarioFacts)
            for (event, count) in oracle.events(of: scenario) { expectedEvents[event, default: 0] += count }
        }
        var expected = Array(repeating: 0, count: targets.count)
        let keys = targets.map { FleetTally.key(event: $0.event, source: $0.source.description, template: $0.url) }
        for (event, count) in expectedEvents {
            let playbackEvent = PlaybackEvent(name: event.name, playhead: event.offset ?? .zero, clock: event.offset ?? .zero, offset: event.offset)
            for target in prepared.plan.targets(for: playbackEvent) {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += count
                }
            }
        }
        let sent = await tally.sent, delivered = await tally.delivered
        let received = await hits.asyncMap { await tally.received(hits: $0) }
        var beacons: [FleetReport.Beacon] = []
        for (index, target) in targets.enumerated() {
            let offset = target.event == "progress" ? prepared.plan.progress.first { $0.targets.contains { $0.url == target.url } }?.at.seconds : nil
            beacons.append(FleetReport.Beacon(event: target.event, source: target.source.description, template: target.url, offset: offset,
                                              expected: expected[index], sent: sent[index], delivered: delivered[index],
                                              received: received?.perKey[index]))
        }
        let population = FleetReport.Population(
            scenarios: await tally.scenarios, endings: await tally.endings, rewardsGranted: await tally.rewardsGranted,
            rewardsForfeited: await tally.rewardsForfeited, events: await tally.events, beacons: beacons,
            failures: await tally.failures, unexpected: received?.unexpected)
        let latency = FleetReport.latency(of: await tally.latency)
        let sessions = configuration.shard.indices(of: configuration.sessions).underestimatedCount
        let performance = FleetReport.Performance(
            seconds: seconds, decodeSeconds: prepared.decodeSeconds,
            sessionsPerSecond: seconds > 0 ? Double(sessions) / seconds : 0,
            beaconsPerSecond: seconds > 0 ? Double(sent.reduce(0, +)) / seconds : 0,
            latency: latency, peakRSSMiB: FleetReport.peakRSSMiB())
        let fleet = FleetReport.Fleet(
            tag: configuration.session.tag, sessions: configuration.sessions, seed: configuration.session.seed,
            mix: configuration.mix.description, shardCount: configuration.shard.count, shards: [configuration.shard.index],
            media: prepared.mediaURL, duration: prepared.timeline.info.exactDuration.seconds,
            decodeEach: configuration.decodeEach, dryRun: configuration.session.dryRun)
        return FleetReport(fleet: fleet, population: population, checks: FleetReport.checks(of: population), performance: performance,
                           warnings: warnings)
    }
}

/// Why a fleet could not play at all: the ad's or the media's error (with its VAST code), and the warnings before it.
public struct FleetFailure: Error, Sendable {
    public var error: SessionError
    public var warnings: [String]
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async -> T) async -> T? {
        switch self {
        case let .some(value): return await transform(value)
        case .none: return nil
        }
    }
}
