import PlayerEngine
import TrackingBeacons
import VAST

/// The one beacon step of a session: an event, with the player state it needs, becomes the beacon requests it
/// fires, macros filled for its moment. A pure value (no clock, no I/O): the single-session runner and every fleet
/// session use it, so both fire the same beacons by construction.
struct BeaconStep {
    /// One planned beacon, and the macros it met without a value for the first time in this session (each is
    /// warned about once, before the beacon).
    struct Planned {
        var beacon: PlannedBeacon
        var newUnknownMacros: [String]
    }

    private var planner: BeaconPlanner
    private var gate: TrackingGate
    private var plan: TrackingPlan?
    /// The reward callback and its signer (`--reward-callback`).
    private let rewardCallback: (callback: RewardCallback, signer: RewardSigner)?
    private let repeatTracking: SessionConfiguration.RepeatTracking
    private let replayTracking: SessionConfiguration.ReplayTracking
    /// Server-side mode: the stitcher fires the timed events at segment requests, the client nothing of its own.
    private var stitching: ServerSideStitching?

    /// - Parameters:
    ///   - seed: this session's seed (`[CACHEBUSTING]`, `[TRANSACTIONID]`).
    ///   - wallStart: wall time of the first frame, ms since 1970 (`[TIMESTAMP]` = this + the event's clock).
    ///   - macros: `BeaconPlanner.macros(for: configuration)`, when the caller made it already.
    ///   - identity: `configuration.identity`, when the caller made it already.
    init(configuration: SessionConfiguration, seed: UInt64, wallStart: Int64, macros: [String: String]? = nil, identity: UInt64? = nil) {
        planner = BeaconPlanner(configuration: configuration, seed: seed, wallStart: wallStart, macros: macros, identity: identity)
        gate = TrackingGate(repeatTracking: configuration.repeatTracking, replayTracking: configuration.replayTracking)
        (repeatTracking, replayTracking) = (configuration.repeatTracking, configuration.replayTracking)
        rewardCallback = configuration.rewardCallback.map { ($0, RewardSigner.current(seed: configuration.seed)) }
        stitching = configuration.serverSide.map(ServerSideStitching.init)
    }

    /// In server-side mode, what the stitcher fired and when, against the client's moments.
    var serverSide: ServerSideReport? {
        stitching.map { ServerSideReport(insertion: $0.insertion, timings: $0.timings) }
    }

    /// A pod's next ad (at `place`): its beacons carry the place and `adCount` as `[ADCOUNT]` (the InLine ads
    /// played so far, this one included when it plays), and its one-shot tracking fires afresh: a new ad. The
    /// player's state (muted) carries over.
    mutating func beginAd(place: Int, sequence: Int?, adCount: Int) {
        planner.enter(place: place, sequence: sequence, adCount: adCount)
        gate = TrackingGate(repeatTracking: repeatTracking, replayTracking: replayTracking)
        plan = nil
    }

    /// The break's ads are over: what fires now (a VMAP break's `breakEnd`) is the break's, carrying no ad's place
    /// or facts, as a session's `VMAPBreakTracking` fires it.
    mutating func endBreak() {
        planner.leaveAds()
        plan = nil
    }

    /// The beacons a step of the ad's preparation fires, with the macro facts it carries.
    /// `clock`: the session time it happens at (a pod's later ad is tried when the ad before it ends).
    mutating func take(_ step: PreparedAd.Step, at clock: Duration = .zero) -> [Planned] {
        switch step {
        case let .fire(targets, code, reason, facts):
            planner.take(facts)
            return fire(targets, errorCode: code, reason: reason, playhead: nil, clock: clock)
        case let .failure(error, targets, facts):
            planner.take(facts)
            return fire(targets, errorCode: error.code, reason: nil, playhead: error.playhead, clock: error.clock ?? clock)
        case .warning, .resolved: return []
        }
    }

    /// Playback is about to start with this tracking plan, its beacons carrying `facts`.
    mutating func play(_ plan: TrackingPlan, facts: AdMacroFacts?) {
        planner.take(facts)
        self.plan = plan
        stitching?.begin(plan)
    }

    /// The beacons `event` fires: its tracking URLs by the repeat and replay policies, with `[PLAYERSTATE]` as the
    /// player is after it (a mute's own beacon says muted).
    mutating func beacons(for event: PlaybackEvent) -> [Planned] {
        if event.name == .mute { planner.muted = true }
        if event.name == .unmute { planner.muted = false }
        guard let plan else { return [] }
        if stitching != nil { return stitched(event, plan: plan) }
        guard gate.fires(event) else { return [] }
        var planned = fire(plan.targets(for: event), errorCode: nil, reason: nil, playhead: event.playhead, clock: event.clock)
        if event.name == .rewarded, let reward = event.reward, let (callback, signer) = rewardCallback {
            // The ad network's signed server-to-server callback: once, when the reward is granted.
            planned.append(Planned(beacon: planner.rewardCallback(callback, reward: reward, signer: signer, playhead: event.playhead, clock: event.clock),
                                   newUnknownMacros: []))
        }
        return planned
    }

    /// Server-side mode: the stitcher's beacons for the segments requested by `event`, stamped with their requests'
    /// times; the client's own events fire nothing (the stitcher cannot see a pause, a mute or a click). The ad
    /// network's reward callback is server to server either way.
    private mutating func stitched(_ event: PlaybackEvent, plan: TrackingPlan) -> [Planned] {
        guard var stitching else { return [] }
        defer { self.stitching = stitching }
        var planned: [Planned] = []
        for (pending, clock) in stitching.due(at: event) {
            var probe = PlaybackEvent(name: pending.name, playhead: pending.request, clock: clock, offset: pending.offset)
            probe.play = 1
            let fired = fire(plan.targets(for: probe), errorCode: nil, reason: nil, playhead: pending.request, clock: clock)
            stitching.counted(fired.count, for: pending.name, offset: pending.offset)
            planned += fired
        }
        stitching.observe(event)
        if event.name == .rewarded, let reward = event.reward, let (callback, signer) = rewardCallback {
            planned.append(Planned(beacon: planner.rewardCallback(callback, reward: reward, signer: signer, playhead: event.playhead, clock: event.clock),
                                   newUnknownMacros: []))
        }
        return planned
    }

    /// The page a click opens, macros expanded for its moment: the video's ClickThrough on `click`, the end card's
    /// CompanionClickThrough on `endCardClick`, the icon's IconClickThrough on `iconClick`; nil when the click opened
    /// nothing.
    mutating func clickThroughURL(for event: PlaybackEvent) -> String? {
        guard let plan, event.detail == .clickThrough(opened: true) else { return nil }
        let template: String? = switch event.name {
        case .click: plan.ad.clickThrough?.url
        case .endCardClick: plan.endCard?.companion.value.clickThrough
        case .iconClick: event.icon.flatMap(plan.icon(at:))?.icon.value.clickThrough
        default: nil
        }
        return template.map { planner.landingPage($0, playhead: event.playhead, clock: event.clock) }
    }

    /// `targets` planned for one moment; `errorCode` fills `[ERRORCODE]`, `reason` `[REASON]`.
    mutating func fire(_ targets: [TrackingPlan.Target], errorCode: VASTErrorCode?, reason: Int?, playhead: Duration?, clock: Duration) -> [Planned] {
        targets.map { target in
            let (beacon, fresh) = planner.plan(target, playhead: playhead, clock: clock, errorCode: errorCode, reason: reason)
            return Planned(beacon: beacon, newUnknownMacros: fresh)
        }
    }
}
