import Findings
import Primitives
import BeaconSink
import Foundation
import PlayerEngine
import TrackingBeacons
import VAST

/// Plays one ad session end to end — resolve the tag, choose and open the media, play it on the configured clock,
/// fire every tracking URL of every event — and reports each step to `observer` as it happens. Everything outside
/// the session (HTTP, FFmpeg, clocks) comes from its `SessionEnvironment`.
public struct AdSessionRunner: Sendable {
    /// The settings of the session this runner plays.
    public let configuration: SessionConfiguration
    /// What the session reaches outside itself: tag fetching, beacon transport, media opening, clocks.
    public let environment: SessionEnvironment
    /// Network time the ad request took before this runner began (a first document fetched to tell VMAP from VAST):
    /// part of the wait `--display-deadline` limits.
    var loadedBefore: Duration = .zero

    /// - Parameter environment: what the session reaches outside itself; `.live(configuration)` when nil.
    public init(configuration: SessionConfiguration, environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.environment = environment ?? .live(configuration)
    }

    /// How long an interrupted session still waits for its beacons' answers ("about 2 s" in docs/reference/exit-codes.md, "Signals").
    public static let interruptedDrain: Duration = .seconds(2)

    /// Runs the session to its end: resolves and plays the ad (or pod), fires its beacons, waits for their answers up
    /// to `configuration.beaconDrain`, reconciles them with the sink when one is attached, and shuts the environment
    /// down. The outcome is `.interrupted` when the task is cancelled.
    /// - Parameter observer: called with each record (resolution, event, beacon, warning, error) as it happens.
    /// - Returns: the session's totals and outcome.
    public func run(observer: @escaping @Sendable (SessionRecord) async -> Void) async -> SessionSummary {
        let outlet = await Outlet.open(configuration, environment: environment, observer: observer)
        var summary = SessionSummary(outcome: .completed, dryRun: configuration.dryRun)
        summary.network = configuration.network
        await play(into: &summary, wallStart: outlet.wallStart, tally: outlet.tally, dispatcher: outlet.dispatcher)
        if Task.isCancelled { summary.outcome = .interrupted }
        await outlet.close(&summary, configuration: configuration, environment: environment)
        return summary
    }

    /// Where a session's records and beacons go, from its start to its end: the tally, the dispatcher on the
    /// environment's transport (through the embedded sink when one is asked for) and the wall time at the start.
    /// A VMAP session opens one for all its breaks.
    struct Outlet {
        let tally: Tally
        let dispatcher: BeaconDispatcher
        let wallStart: Int64
        let sink: BeaconSink?
        let routing: SinkRouting?

        static func open(_ configuration: SessionConfiguration, environment: SessionEnvironment,
                         observer: @escaping @Sendable (SessionRecord) async -> Void) async -> Outlet {
            let tally = Tally(observer: observer)
            let wallStart = configuration.now ?? environment.wallClock()
            let connection = await SinkHookup.connect(configuration, environment: environment)
            if let warning = connection.warning { await tally.send(.warning(Finding(.sinkUnavailable, warning).description)) }
            let dispatcher = BeaconDispatcher(transport: connection.transport, policy: configuration.beaconPolicy, clock: environment.networkClock,
                                              wallClock: environment.wallClock) { record in
                await tally.beacon(record)
            }
            return Outlet(tally: tally, dispatcher: dispatcher, wallStart: wallStart, sink: connection.sink, routing: connection.routing)
        }

        /// The end of the session: beacons drained, reconciled with the sink, the environment shut down, the counts
        /// filled in.
        func close(_ summary: inout SessionSummary, configuration: SessionConfiguration, environment: SessionEnvironment) async {
            await dispatcher.drainAtSessionEnd(waitingAtMost: configuration.beaconDrain)
            if let sink, let routing {
                let device = configuration.serverSide?.expectedAtSink(deviceUserAgent: configuration.userAgent)
                let reconciliation = Reconciliation(records: await tally.beacons, hits: sink.hits(), routing: routing, device: device)
                summary.reconciliation = reconciliation
                await tally.send(.reconciliation(reconciliation))
                await sink.stop()
            }
            await environment.shutdown()
            await tally.fill(&summary)
        }
    }

    /// The prepared break with each turn's opened media as a session plays it: a replay reopens the file, its
    /// timeline known from the first open.
    static func playable(_ prepared: PreparedAd, media: any MediaOpening, threads: Int) -> AdBreak<MediaHandle> {
        prepared.adBreak.withMedia { turnMedia in
            turnMedia.opened.map { opened in
                MediaHandle(source: opened.source, duration: opened.duration,
                            reopen: media.reopener(opened.location, timeline: opened.source.info.timeline, streaming: nil, threads: threads))
            }
        }
    }

    /// The break prepared under the limits around its first frame: `--display-deadline` (`DisplayDeadline`), and the
    /// app's state while it loaded (`load+N` script steps: a ready ad waits, on the network clock, for the app to be
    /// active).
    private func prepareWithinLimits() async -> (PreparedAd, SessionScript.Loading?) {
        let preparation = AdPreparation(configuration: configuration, environment: environment)
        let since = environment.networkClock.stopwatch()
        let deadline = configuration.displayDeadline.map { DisplayDeadline(limit: $0, spent: loadedBefore) }
        let (ready, passed) = if let deadline {
            await deadline.prepare(preparation, clock: environment.networkClock)
        } else {
            (await preparation.prepare(.play), false)
        }
        let elapsed = since()
        var loading: SessionScript.Loading?
        if !configuration.script.loadSteps.isEmpty, ready.plays {
            loading = configuration.script.afterLoading(readyAt: loadedBefore + elapsed + ready.startupDelay)
        }
        let prepared = deadline?.judge(ready, elapsed: elapsed, passed: passed, waited: loading?.waited ?? .zero) ?? ready
        guard prepared.plays else { return (prepared, nil) }
        if let waited = loading?.waited, waited > .zero { try? await environment.networkClock.sleep(for: waited) }
        return (prepared, loading)
    }

    /// The app was killed (`terminate`) at session time `clock`: its beacons had until then on the network clock too
    /// (a virtual session runs ahead of it: the network catches up, as long as any is unanswered), and whatever is not
    /// answered by then is lost with the app.
    private func terminate(at clock: Duration, playing: Duration, dispatcher: BeaconDispatcher) async {
        await dispatcher.finish(waitingAtMost: max(.zero, clock - playing), lost: true)
    }

    private func play(into summary: inout SessionSummary, wallStart: Int64, tally: Tally, dispatcher: BeaconDispatcher) async {
        let (prepared, loading) = await prepareWithinLimits()
        summary.loading = loading
        summary.hops = prepared.resolution.hops
        summary.adID = prepared.ad?.ad.id
        summary.mediaURL = prepared.media?.selection.file.url
        summary.duration = prepared.media?.duration
        // `[TIMESTAMP]` counts from the first frame: after a wait for the app (`load+N`), the wall clock is read again.
        let firstFrame = configuration.now ?? ((loading?.waited ?? .zero) > .zero ? environment.wallClock() : wallStart)
        var step = BeaconStep(configuration: configuration, seed: configuration.seed, wallStart: firstFrame)
        let adBreak = Self.playable(prepared, media: environment.media, threads: configuration.decoderThreads)
        let outputs = SessionCore.Outputs(report: { await tally.send($0) }, submit: { beacon in
            await tally.planned()
            await dispatcher.submit(beacon)
        })
        let playing = environment.networkClock.stopwatch()
        let result = await SessionCore(environment: environment).run(
            adBreak, script: loading?.script ?? configuration.script, clock: environment.playbackClock(configuration.clock), step: &step, outputs: outputs)
        summary.serverSide = step.serverSide
        if let playback = result.playback, playback.ending == .terminated { await terminate(at: playback.clock, playing: playing(), dispatcher: dispatcher) }
        if adBreak.kind == .pod {
            summary.ads = result.ads
            summary.duration = result.playback?.duration
        }
        if let error = result.error {
            summary.outcome = switch error.kind {
            case .ad: .adError
            case .media: .mediaError
            case .usage: .usageError
            }
            summary.error = error
        }
        if let playback = result.playback {
            summary.playback = playback
            summary.clock = result.error?.clock ?? playback.clock
            if playback.interrupted { summary.outcome = .interrupted }
        }
    }
}
