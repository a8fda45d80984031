import PlayerEngine
import TrackingBeacons
import VAST

/// One session of a prepared ad, written once: what happens before the first frame (warnings, the ad's error, the
/// beacons fired before playback), then the media played on the session's clock, each event's beacons planned by the
/// `BeaconStep` and handed to `submit`. The single-session runner and every session of a fleet run this.
struct SessionCore {
    /// Where what happens goes, in order.
    struct Outputs {
        /// Warnings, errors, the resolved ad and every event (a fleet counts events and drops the rest).
        var report: nonisolated(nonsending) (SessionRecord) async -> Void
        /// Each planned beacon, in order (to the dispatcher).
        var submit: nonisolated(nonsending) (PlannedBeacon) async -> Void
    }

    /// How the session went.
    struct Result {
        var playback: PlaybackReport?
        /// The ad's or the media's error (reported, its Error URLs fired), if any. In a pod, only when no ad of it
        /// played (each ad's own error is in `ads`).
        var error: SessionError?
        /// In a pod: what happened to each ad tried.
        var ads: [PodAdReport] = []
    }

    let prepared: SessionPlan
    let environment: SessionEnvironment

    /// Plays the session. `media` is this session's source (nil plays nothing: the ad failed in preparation);
    /// `reopen` opens it again for a replay.
    func run(source: (any MediaSource)?, reopen: (() throws(MediaError) -> any MediaSource)?, script: SessionScript,
             clock: any Clock<Duration>, step: inout BeaconStep, outputs: Outputs) async -> Result {
        var result = Result(error: prepared.failure)
        for item in prepared.steps {
            switch item {
            case let .warning(text): await outputs.report(.warning(text))
            case let .failure(error, _): await outputs.report(.error(error))
            case let .resolved(info): await outputs.report(.resolved(info))
            case .fire, .adChosen, .mediaOpened: break
            }
            await submit(step.take(item), outputs)
        }
        // A session stopped before its first frame (a signal, or `run` refusing to let an output replace the media it
        // just resolved) plays nothing: no impression goes out for an ad nobody saw.
        guard prepared.failure == nil, !Task.isCancelled, let source, let plan = prepared.plan, let rules = prepared.rules else { return result }

        step.play(plan)
        let engine = PlaybackEngine(configuration: .init(rules: rules, delivery: prepared.delivery, measuredNetwork: prepared.measuredNetwork))
        var beacons = step
        defer { step = beacons }
        let onEvent: nonisolated(nonsending) (PlaybackEvent) async -> Void = { event in
            // The event reported carries the page a click opens; copied only then (most events open none, and an
            // event is a large value). Its beacons do not depend on the page.
            let page = beacons.clickThroughURL(for: event)
            if page == nil, event.clickThroughURL == nil {
                await outputs.report(.event(event))
            } else {
                var shown = event
                shown.clickThroughURL = page
                await outputs.report(.event(shown))
            }
            await submit(beacons.beacons(for: event), outputs)
        }
        do {
            result.playback = try await environment.onMediaExecutor { () async throws(PlaybackFailure) -> PlaybackReport in
                try await engine.play(source, script: script, reopen: reopen, on: clock, onEvent: onEvent)
            }
        } catch {
            result.playback = error.report
            result.error = await failed(error, ad: prepared.ad, startingAt: .zero, step: &beacons, outputs: outputs)
        }
        return result
    }

    /// The media failed mid-play (an ad that started at session time `start`): the error is reported and fired to
    /// the ad's Error URLs, with the playhead where playback stopped.
    func failed(_ error: PlaybackFailure, ad: ResolvedAd?, startingAt start: Duration, step: inout BeaconStep, outputs: Outputs) async -> SessionError {
        let failure = SessionError(kind: .media, code: error.error.vastCode, message: error.error.description,
                                   playhead: error.playhead, clock: start + error.clock)
        await outputs.report(.error(failure))
        let targets = ad?.errorURLs.map(AdPreparation.errorTarget) ?? []
        await submit(step.fire(targets, errorCode: failure.code, reason: nil, playhead: failure.playhead, clock: start + error.clock), outputs)
        return failure
    }

    nonisolated(nonsending) func submit(_ planned: [BeaconStep.Planned], _ outputs: Outputs) async {
        for item in planned {
            for name in item.newUnknownMacros { await outputs.report(.warning("[\(name)] is not a VAST macro; left as written")) }
            await outputs.submit(item.beacon)
        }
    }
}
