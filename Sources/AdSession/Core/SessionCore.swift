import Findings
import PlayerEngine
import TrackingBeacons
import VAST

/// One session, written once: what fires before the break, then each ad's turn in play order — what happens before
/// its first frame (warnings, its error, the beacons fired before playback), its media played on the session's
/// clock, each event's beacons planned by the `BeaconStep` and handed to `submit`. A single ad is a break of one
/// turn. The single-session runner and every session of a fleet run this.
///
/// In a pod a failed ad fires its error to its own chain (at the session time its turn came); one that plays is a
/// full ad session (its own impression, quartiles, progress and skip offset, beacons carrying its place and
/// `[ADCOUNT]`) whose video's end hands over to the next. A skip skips the current ad; a close, an abandoned ad or a
/// signal ends the pod. What carries from one turn to the next is a `BreakState`.
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

    let environment: SessionEnvironment

    /// Plays the session's break: its prelude, then each turn.
    func run(_ adBreak: AdBreak<MediaHandle>, script: SessionScript, clock: any Clock<Duration>, step: inout BeaconStep,
             outputs: Outputs) async -> Result {
        for item in adBreak.prelude.steps {
            if case let .warning(finding) = item { await outputs.report(.warning(finding.description)) }
            await submit(step.take(item), outputs)
        }
        var state = BreakState(kind: adBreak.kind, turns: adBreak.turns.map { ($0.plays, $0.media?.duration, $0.plan.playback?.rules) }, script: script)
        var outcomes: [PodAdReport] = []
        var total: PlaybackReport?
        for index in adBreak.turns.indices {
            let (outcome, report) = await play(adBreak.turns[index], index: index, state: &state, clock: clock, step: &step, outputs: outputs)
            if adBreak.kind == .pod { await outputs.report(.ad(outcome)) }
            outcomes.append(outcome)
            if let report { total = total.map { $0.followed(by: report, startingAt: outcome.start ?? .zero) } ?? report }
        }
        guard adBreak.kind == .pod else { return Result(playback: total, error: outcomes.first?.error) }
        let leftovers = state.leftovers
        for event in leftovers { await outputs.report(.event(event)) }
        if var whole = total {
            whole.duration = state.podDuration
            whole.events += leftovers.map(\.name)
            total = whole
        }
        var result = Result(playback: total, error: nil, ads: outcomes)
        if state.adsPlayed == 0 { result.error = adBreak.prelude.failure ?? adBreak.turns.first?.failure }
        return result
    }

    /// One turn: its preparation's steps, then (when it plays) its media. Returns its outcome and, when it played,
    /// its playback report.
    private func play(_ turn: AdTurn<MediaHandle>, index: Int, state: inout BreakState, clock: any Clock<Duration>, step: inout BeaconStep,
                      outputs: Outputs) async -> (PodAdReport, PlaybackReport?) {
        let pod = state.kind == .pod
        var outcome = PodAdReport(ad: turn.place, substitute: turn.substitute, outcome: .notPlayed)
        outcome.duration = turn.media?.duration
        outcome.start = state.offset
        if state.skips { return (outcome, nil) }
        if pod { step.beginAd(place: turn.place.index, sequence: turn.place.sequence, adCount: state.adCount(turn: index)) }
        var beacons = 0
        let counted = !pod ? outputs : Outputs(report: outputs.report, submit: { beacon in
            beacons += 1
            await outputs.submit(beacon)
        })
        for item in turn.plan.steps {
            switch item {
            case let .warning(finding): await outputs.report(.warning(finding.description))
            case let .resolved(info): await outputs.report(.resolved(info))
            // A pod ad's error is reported in its outcome; a single ad's, here.
            case let .failure(error, _, _): if !pod { await outputs.report(.error(error)) }
            case .fire: break
            }
            await submit(step.take(item, at: state.offset), counted)
        }
        // A single ad stopped before its first frame (a signal, or `run` refusing to let an output replace the media
        // it just resolved) plays nothing: no impression goes out for an ad nobody saw.
        guard turn.plays, pod || !Task.isCancelled, let media = turn.media, let plan = turn.plan.playback?.plan, let rules = turn.plan.playback?.rules else {
            outcome.outcome = turn.cut ? .cut : .failed
            outcome.error = turn.failure
            (outcome.end, outcome.beacons) = (state.offset, beacons)
            return (outcome, nil)
        }
        let start = state.offset
        let (script, order) = state.script(place: turn.place.index, turn: index)
        step.play(plan, facts: turn.plan.facts)
        let engine = PlaybackEngine(configuration: .init(rules: state.rules(rules, turn: index), delivery: turn.plan.playback?.delivery,
                                                         measuredNetwork: turn.plan.playback?.measuredNetwork))
        state.start()
        var beaconStep = step, playing = state
        defer { (step, state) = (beaconStep, playing) }
        // A pod's events carry their ad's place (the closure holds that, not the whole turn).
        let place: BreakAd? = pod ? turn.place : nil
        let onEvent: nonisolated(nonsending) (PlaybackEvent) async -> Void = { event in
            // A single ad's event goes out as it came, copied only when a click opens a page (most events open none,
            // and an event is a large value); a pod's is shifted to session time and tagged with its place first.
            guard let place else {
                let page = beaconStep.clickThroughURL(for: event)
                if page == nil, event.clickThroughURL == nil {
                    await outputs.report(.event(event))
                } else {
                    var shown = event
                    shown.clickThroughURL = page
                    await outputs.report(.event(shown))
                }
                await submit(beaconStep.beacons(for: event), counted)
                return
            }
            var event = event
            event.clock += start
            event.ad = place
            playing.observe(event)
            event.clickThroughURL = beaconStep.clickThroughURL(for: event)
            await outputs.report(.event(event))
            await submit(beaconStep.beacons(for: event), counted)
        }
        var report: PlaybackReport
        var failed = false
        do {
            report = try await environment.onMediaExecutor { () async throws(PlaybackFailure) -> PlaybackReport in
                try await engine.play(media.source, script: script, reopen: media.reopen, on: clock, onEvent: onEvent)
            }
        } catch {
            report = error.report
            outcome.error = await self.failed(error, ad: turn.plan.ad, startingAt: start, step: &beaconStep, outputs: counted)
            failed = true
        }
        (outcome.outcome, outcome.played) = playing.finish(turn: index, report: report, order: order, failed: failed)
        (outcome.start, outcome.end, outcome.beacons) = (start, playing.offset, beacons)
        return (outcome, report)
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
            for name in item.newUnknownMacros { await outputs.report(.warning(Finding(.macroUnknown, "[\(name)] is not a VAST macro; left as written").description)) }
            await outputs.submit(item.beacon)
        }
    }
}
