import PlayerEngine
import VAST

/// What one turn of a session hands the next, as a value: the session clock where the next ad starts, the player's
/// state (muted, the viewport), the pod's reward, the script steps no ad has taken yet. `SessionCore` plays each
/// turn and folds its events and its report in; the rules and the script of the next turn are derived from it.
///
/// A single ad is a break of one turn that keeps its own rules and the whole script. In a pod the reward is the
/// pod's: granted once, by the threshold counted over the whole pod (default: when the last ad completes), forfeited
/// when an ad ends early before it; session-time script steps go to the ad on screen at their time, `adK+N` steps to
/// ad K, and steps no ad was there to take are reported, never dropped silently.
struct BreakState {
    /// Whether the pod's reward is still to be earned.
    enum RewardState: Equatable { case pending, granted, forfeited }

    let kind: BreakKind
    /// Session clock at the next turn's start.
    private(set) var offset: Duration = .zero
    /// Media time the turns before played, counted toward the pod's reward threshold.
    private(set) var playedBefore: Duration = .zero
    private(set) var muted = false
    private(set) var viewport = 100.0
    private(set) var reward = RewardState.pending
    /// Turns that started playing (each one's `[ADCOUNT]` counts itself).
    private(set) var adsPlayed = 0
    /// A close, an abandoned ad, a signal or the last ad's failure ended the break: later turns do not play.
    private(set) var ended = false
    /// The largest playhead of the turn playing.
    private(set) var lastPlayhead: Duration = .zero
    /// Session-time script steps not yet taken, and each place's own steps not yet handed to its ad.
    private(set) var remaining: [SessionScript.Step]
    private(set) var own: [Int: [SessionScript.Step]]
    /// The steps still waiting were handed to the last ad (which reports those it ignores).
    private var remainingReported = false
    /// The app was killed (`terminate`): nothing after it is reported.
    private var terminated = false
    private let script: SessionScript
    /// The pod's playout limit, from its first frame: the session-time `playoutLimit` step.
    private let playoutLimit: Duration?
    /// Indices of the turns that play, in order.
    let playing: [Int]
    /// Each turn's media duration (zero when it does not play).
    let durations: [Duration]
    /// The pod playhead at which its reward is earned; nil: when the last ad completes.
    private let rewardAt: Duration?
    /// The reward the pod grants (the first playing ad's that has one).
    private let podReward: PlayerEngine.Reward?

    init(kind: BreakKind, turns: [(plays: Bool, duration: Duration?, rules: PlaybackRules?)], script: SessionScript) {
        self.kind = kind
        self.script = script
        playoutLimit = script.steps.first { $0.ad == nil && $0.inputs == [.playoutLimit] }?.at
        // A single ad takes the whole script as it is.
        remaining = kind == .pod ? script.steps.filter { $0.ad == nil } : []
        own = kind == .pod ? Dictionary(grouping: script.steps.filter { $0.ad != nil }, by: { $0.ad ?? 0 }) : [:]
        let playing = turns.indices.filter { turns[$0].plays }
        let durations = turns.map { $0.duration ?? .zero }
        let podDuration = playing.reduce(Duration.zero) { $0 + durations[$1] }
        (self.playing, self.durations) = (playing, durations)
        podReward = playing.lazy.compactMap { turns[$0].rules?.reward }.first
        rewardAt = playing.first.flatMap { turns[$0].rules }.flatMap { rules in
            var whole = PlaybackRules(duration: podDuration)
            whole.rewardThreshold = rules.rewardThreshold
            return whole.rewardPlayhead(duration: podDuration)
        }
    }

    /// The pod's duration: the media of every turn that plays.
    var podDuration: Duration { playing.reduce(Duration.zero) { $0 + durations[$1] } }

    /// Whether the next turn is skipped without being tried: the break ended before it, its playout limit has come,
    /// or (in a pod) a signal came.
    var skips: Bool { ended || limitReached || (kind == .pod && Task.isCancelled) }

    /// Whether a pod's playout limit (an HLS interstitial's `X-PLAYOUT-LIMIT`, a session-time step) has come by the
    /// next turn's start: the player plays nothing more of the pod.
    var limitReached: Bool { kind == .pod && playoutLimit.map { offset >= $0 } == true }

    /// `[ADCOUNT]` of turn `index`: the ads played before it, and itself when it plays.
    func adCount(turn index: Int) -> Int { playing.contains(index) ? adsPlayed + 1 : adsPlayed }

    /// The rules turn `index` plays by: a single ad's own; a pod's ad hands over to the next unless it is the last
    /// that plays, starts with the player's state, and carries the pod's reward while it is still to be earned, with
    /// the threshold where the pod's falls in this ad (else later, or at its end for the last).
    func rules(_ rules: PlaybackRules, turn index: Int) -> PlaybackRules {
        guard kind == .pod else { return rules }
        var rules = rules
        let isLast = playing.last == index
        rules.handsOver = !isLast
        rules.startsMuted = muted
        rules.initialViewport = viewport
        rules.reward = reward == .pending ? podReward : nil
        if let rewardAt, rewardAt - playedBefore < durations[index] {
            rules.rewardThreshold = .played(max(.zero, rewardAt - playedBefore))
        } else {
            rules.rewardThreshold = isLast ? .complete : .later
        }
        return rules
    }

    /// The script of the ad at `place` starting now: a single ad's whole script; in a pod the session-time steps
    /// still waiting (on its clock) and its own. `order` maps the script's steps back to `remaining + own`.
    mutating func script(place: Int, turn index: Int) -> (script: SessionScript, order: [Int]) {
        guard kind == .pod else { return (script, Array(script.steps.indices)) }
        remainingReported = playing.last == index
        return SessionScript.forAd(startingAt: offset, remaining: remaining, own: own.removeValue(forKey: place) ?? [])
    }

    /// An event of a pod's turn playing: the player's state and the pod's reward follow it (a single ad's events are
    /// not observed: nothing follows its one turn).
    mutating func observe(_ event: PlaybackEvent) {
        lastPlayhead = max(lastPlayhead, event.playhead)
        switch event.name {
        case .mute: muted = true
        case .unmute: muted = false
        case .rewarded: reward = .granted
        case .rewardForfeited: reward = .forfeited
        case .viewport: if case let .viewport(percent)? = event.detail { viewport = percent }
        default: break
        }
    }

    /// A turn starts playing at `offset`.
    mutating func start() { lastPlayhead = .zero }

    /// Turn `index` played (its media failed when `failed`): the steps it handled are taken, the clock moves to its
    /// end. Returns its outcome and the media time it played.
    mutating func finish(turn index: Int, report: PlaybackReport, order: [Int], failed: Bool) -> (PodAdReport.Outcome, played: Duration) {
        if failed, playing.last == index { ended = true }
        if kind == .pod {
            let handled = Set(order.prefix(report.stepsHandled))
            remaining = remaining.indices.filter { !handled.contains($0) }.map { remaining[$0] }
        }
        adsPlayed += 1
        offset += report.clock
        let played = report.ending == .completed ? durations[index] : lastPlayhead
        playedBefore += played
        var outcome: PodAdReport.Outcome
        switch report.ending {
        case .completed: outcome = .completed
        case .skipped: outcome = .skipped
        case .closedEarly: outcome = .closed; ended = true
        case .abandoned: outcome = .abandoned; ended = true
        case .stopped: outcome = .stopped; ended = true
        case .terminated: outcome = .terminated; (ended, terminated) = (true, true)
        case .failed: outcome = .failed
        case nil: outcome = report.interrupted ? .interrupted : .completed
        }
        if report.interrupted { outcome = .interrupted; ended = true }
        return (outcome, played)
    }

    /// A pod's script steps no ad was there to take, as refusals at the break's end (none for a single ad).
    var leftovers: [PlaybackEvent] {
        guard kind == .pod, !terminated else { return [] }
        var events: [PlaybackEvent] = []
        if !remainingReported {
            // A playout limit the break never reached is the player's, not a step the script lost.
            events += remaining.filter { $0.inputs != [.playoutLimit] }
                .map { PlaybackEvent(name: .rejected, playhead: .zero, clock: offset, detail: .refused(step: $0.text, .adAlreadyClosed)) }
        }
        for (place, steps) in own.sorted(by: { $0.key < $1.key }) {
            events += steps.map { PlaybackEvent(name: .rejected, playhead: .zero, clock: offset, detail: .refused(step: $0.text, .adNotPlayed(place))) }
        }
        return events
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
