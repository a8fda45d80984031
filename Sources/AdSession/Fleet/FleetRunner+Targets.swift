import PlayerEngine
import VAST

extension FleetRunner {
    /// A fleet's tracking URLs, each with the pod place of the ad it belongs to (nil for a single ad and for what
    /// fires before a pod): a pod's are its prelude's, then each ad's in play order.
    static func targets(of ad: FleetAd, withErrors: Bool = false) -> [(target: TrackingPlan.Target, ad: Int?)] {
        let breakEnd = ad.breakEnd.map { (target: $0, ad: Int?.none) }
        guard !ad.pod.isEmpty else { return targets(of: ad.plan, withErrors: withErrors).map { ($0, nil) } + breakEnd }
        var seen: Set<FleetTally.Key> = []
        var all = targets(of: ad.plan).map { (target: $0, ad: Int?.none) }
        for part in ad.pod {
            for target in targets(of: part.plan) where seen.insert(FleetTally.key(event: target.event, source: target.source.description, template: target.url, ad: part.place.index)).inserted {
                all.append((target, part.place.index))
            }
        }
        return all + breakEnd
    }

    /// The report row of the reward callback (`--reward-callback`): sent by the ad that grants the reward (a pod's
    /// last ad), nil when none is configured or the ad grants no reward.
    static func rewardCallbackRow(of ad: FleetAd, session: SessionConfiguration) -> (event: String, source: String, template: String, ad: Int?)? {
        guard let callback = session.rewardCallback else { return nil }
        if ad.pod.isEmpty {
            return ad.plan.playback?.rules.reward == nil ? nil : ("rewardCallback", "reward callback", callback.url, nil)
        }
        let playing = ad.pod.filter(\.plays)
        guard let last = playing.last, playing.contains(where: { $0.plan.playback?.rules.reward != nil }) else { return nil }
        return ("rewardCallback", "reward callback", callback.url, last.place.index)
    }

    /// The scenario facts of the ads that play: one ad, or each ad of a pod that plays, by place.
    static func scenarioFacts(of ad: FleetAd) -> [(place: Int?, facts: FleetScenario.Facts)] {
        guard !ad.pod.isEmpty else {
            return [(nil, FleetScenario.Facts(duration: ad.timeline?.info.exactDuration ?? .zero, skipOffset: ad.plan.playback?.rules.skipOffset))]
        }
        return ad.pod.filter(\.plays).map { part in
            (part.place.index, FleetScenario.Facts(duration: part.media?.timeline.info.exactDuration ?? .zero, skipOffset: part.plan.playback?.rules.skipOffset))
        }
    }

    /// Every tracking URL a session of this ad can fire, in a stable order, each once: the prelude's (failed chains'
    /// Error URLs, verificationNotExecuted, the ad's error) first, then each playback event's.
    static func targets(of ad: SessionPlan, withErrors: Bool = false) -> [TrackingPlan.Target] {
        var seen: Set<FleetTally.Key> = []
        var all: [TrackingPlan.Target] = []
        func add(_ target: TrackingPlan.Target) {
            if seen.insert(FleetTally.key(event: target.event, source: target.source.description, template: target.url)).inserted { all.append(target) }
        }
        for beacons in ad.steps.preludeBeacons { beacons.targets.forEach(add) }
        guard let plan = ad.playback?.plan else { return all }
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
}
