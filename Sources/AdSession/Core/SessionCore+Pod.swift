import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

extension SessionCore {
    /// One ad a pod tries, ready to play (or to fire its failure).
    struct PodAd {
        /// Its place, id and sequence.
        var ad: BreakAd
        /// What it fires and plays; `plan.failure` when it cannot play.
        var plan: SessionPlan
        var substitute = false
        var cut = false
        /// Its media's duration, when opened.
        var duration: Duration?
        /// Its opened media; nil when it cannot play.
        var source: (any MediaSource)?
        var reopen: (() throws(MediaError) -> any MediaSource)?
    }

    /// Whether the pod's reward is still to be earned.
    private enum RewardState { case pending, granted, forfeited }

    /// Plays an ad pod on one session clock: each ad tried in turn — a failed one fires its error to its own chain
    /// (at the session time its turn came), one that plays is a full ad session (its own impression, quartiles,
    /// progress and skip offset, beacons carrying its place and `[ADCOUNT]`) whose video's end hands over to the
    /// next. A skip skips the current ad; a close, an abandoned ad or a signal ends the pod. The reward is the pod's:
    /// granted once, by the threshold counted over the whole pod (default: when the last ad completes), forfeited
    /// when an ad ends early before it. The end card follows the last ad. Session-time script steps go to the ad on
    /// screen at their time; `adK+N` steps to ad K.
    func runPod(_ ads: [PodAd], script: SessionScript, clock: any Clock<Duration>, step: inout BeaconStep, outputs: Outputs) async -> Result {
        var result = Result(error: nil)
        for item in prepared.steps {
            if case let .warning(text) = item { await outputs.report(.warning(text)) }
            await submit(step.take(item), outputs)
        }
        let playable = ads.indices.filter { ads[$0].plan.failure == nil && ads[$0].source != nil }
        let durations = ads.map { $0.duration ?? .zero }
        let podDuration = playable.reduce(Duration.zero) { $0 + durations[$1] }
        let firstRules = playable.first.flatMap { ads[$0].plan.rules }
        let reward = playable.lazy.compactMap { ads[$0].plan.rules?.reward }.first
        // The pod playhead at which the reward is earned; nil: when the last ad completes.
        let rewardAt: Duration? = firstRules.flatMap { rules in
            var whole = PlaybackRules(duration: podDuration)
            whole.rewardThreshold = rules.rewardThreshold
            return whole.rewardPlayhead(duration: podDuration)
        }
        var rewardState = RewardState.pending
        var offset: Duration = .zero
        var playedBefore: Duration = .zero
        var remaining = script.steps.filter { $0.ad == nil }
        var own = Dictionary(grouping: script.steps.filter { $0.ad != nil }, by: { $0.ad! })
        var adsPlayed = 0
        var muted = false
        var viewport = 100.0
        var ended = false
        /// Whether the session-time steps still waiting were handed to the last ad (which reports those it ignores).
        var remainingReported = false
        var total: PlaybackReport?

        for (index, podAd) in ads.enumerated() {
            let entry = podAd
            var outcome = PodAdReport(ad: entry.ad, substitute: entry.substitute, outcome: .notPlayed)
            outcome.duration = entry.duration
            if ended || Task.isCancelled {
                outcome.start = offset
                await outputs.report(.ad(outcome))
                result.ads.append(outcome)
                continue
            }
            let plays = playable.contains(index)
            step.beginAd(place: entry.ad.index, sequence: entry.ad.sequence, adCount: plays ? adsPlayed + 1 : adsPlayed)
            var beacons = 0
            let counted = Outputs(report: outputs.report, submit: { beacon in
                beacons += 1
                await outputs.submit(beacon)
            })
            for item in entry.plan.steps {
                switch item {
                case let .warning(text): await outputs.report(.warning(text))
                case let .resolved(info): await outputs.report(.resolved(info))
                case .failure, .fire, .adChosen, .mediaOpened: break
                }
                await submit(step.take(item, at: offset), counted)
            }
            guard plays, let source = podAd.source, let plan = entry.plan.plan, var rules = entry.plan.rules else {
                outcome.outcome = entry.cut ? .cut : .failed
                outcome.error = entry.plan.failure
                (outcome.start, outcome.end, outcome.beacons) = (offset, offset, beacons)
                await outputs.report(.ad(outcome))
                result.ads.append(outcome)
                continue
            }

            let isLast = playable.last == index
            let duration = durations[index]
            rules.handsOver = !isLast
            rules.startsMuted = muted
            rules.initialViewport = viewport
            rules.reward = rewardState == .pending ? reward : nil
            if let rewardAt, rewardAt - playedBefore < duration {
                rules.rewardThreshold = .played(max(.zero, rewardAt - playedBefore))
            } else {
                rules.rewardThreshold = isLast ? .complete : .later
            }
            let (adScript, order) = SessionScript.forAd(startingAt: offset, remaining: remaining, own: own.removeValue(forKey: entry.ad.index) ?? [])
            remainingReported = isLast
            step.play(plan)
            let engine = PlaybackEngine(configuration: .init(rules: rules, delivery: entry.plan.delivery, measuredNetwork: entry.plan.measuredNetwork))
            var beaconStep = step
            var lastPlayhead: Duration = .zero
            let start = offset
            let onEvent: (PlaybackEvent) async -> Void = { event in
                var event = event
                event.clock += start
                event.ad = entry.ad
                lastPlayhead = max(lastPlayhead, event.playhead)
                switch event.name {
                case .mute: muted = true
                case .unmute: muted = false
                case .rewarded: rewardState = .granted
                case .rewardForfeited: rewardState = .forfeited
                case .viewport: if case let .viewport(percent)? = event.detail { viewport = percent }
                default: break
                }
                event.clickThroughURL = beaconStep.clickThroughURL(for: event)
                await outputs.report(.event(event))
                await submit(beaconStep.beacons(for: event), counted)
            }
            var report: PlaybackReport
            do {
                report = try await environment.onMediaExecutor { () async throws(PlaybackFailure) -> PlaybackReport in
                    try await engine.play(source, script: adScript, reopen: podAd.reopen, on: clock, onEvent: onEvent)
                }
            } catch {
                report = error.report
                outcome.error = await failed(error, ad: entry.plan.ad, startingAt: start, step: &beaconStep, outputs: counted)
                report.clock = error.clock
                if isLast { ended = true }
            }
            step = beaconStep
            let handled = Set(order.prefix(report.stepsHandled))
            remaining = remaining.indices.filter { !handled.contains($0) }.map { remaining[$0] }
            adsPlayed += 1
            offset = start + report.clock
            playedBefore += report.ending == .completed ? duration : lastPlayhead
            outcome.start = start
            outcome.end = offset
            outcome.played = report.ending == .completed ? duration : lastPlayhead
            outcome.beacons = beacons
            switch report.ending {
            case .completed: outcome.outcome = .completed
            case .skipped: outcome.outcome = .skipped
            case .closedEarly: outcome.outcome = .closed; ended = true
            case .abandoned: outcome.outcome = .abandoned; ended = true
            case .failed: outcome.outcome = .failed
            case nil: outcome.outcome = report.interrupted ? .interrupted : .completed
            }
            if report.interrupted { outcome.outcome = .interrupted; ended = true }
            total = total.map { $0.followed(by: report, startingAt: start) } ?? report
            await outputs.report(.ad(outcome))
            result.ads.append(outcome)
        }
        // Steps no ad was there to take are reported, never dropped silently.
        var leftovers: [PlaybackEvent] = []
        if !remainingReported {
            leftovers += remaining.map { PlaybackEvent(name: .rejected, playhead: .zero, clock: offset, detail: .refused(step: $0.text, .adAlreadyClosed)) }
        }
        for (place, steps) in own.sorted(by: { $0.key < $1.key }) {
            leftovers += steps.map { PlaybackEvent(name: .rejected, playhead: .zero, clock: offset, detail: .refused(step: $0.text, .adNotPlayed(place))) }
        }
        for event in leftovers { await outputs.report(.event(event)) }
        if var total {
            total.duration = podDuration
            total.events += leftovers.map(\.name)
            result.playback = total
        }
        if adsPlayed == 0 { result.error = prepared.failure ?? ads.first?.plan.failure }
        return result
    }
}

extension PlaybackReport {
    /// This report followed by `next`, an ad that started at session time `start`: counts add up, the ending and
    /// completion are the later ad's, the clock is where it ended.
    func followed(by next: PlaybackReport, startingAt start: Duration) -> PlaybackReport {
        var total = self
        total.events += next.events
        total.completed = next.completed
        total.ending = next.ending
        total.rewardGranted = rewardGranted || next.rewardGranted
        total.plays = max(plays, next.plays)
        total.framesPresented += next.framesPresented
        total.videoFramesPresented += next.videoFramesPresented
        total.framesLate += next.framesLate
        total.maxFrameLateness = max(maxFrameLateness, next.maxFrameLateness)
        total.stalls += next.stalls
        total.stallTime += next.stallTime
        total.startupDelay = startupDelay ?? next.startupDelay
        total.rebuffers += next.rebuffers
        total.rebufferTime += next.rebufferTime
        total.maxBoundaryLateness = max(maxBoundaryLateness, next.maxBoundaryLateness)
        total.boundaryLateness += next.boundaryLateness
        total.clock = start + next.clock
        total.interrupted = interrupted || next.interrupted
        total.stepsHandled += next.stepsHandled
        total.statistics = statistics.adding(next.statistics)
        return total
    }
}
