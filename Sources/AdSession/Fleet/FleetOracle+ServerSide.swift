import PlayerEngine

extension FleetOracle {
    /// What a stitcher fires for a session of `scenario` in server-side mode (`ServerSideStitching`'s rule, worked out
    /// here without a run): each timed event whose segment the player requested — a request counting once the
    /// playhead has moved past its point, so up to where the viewer stopped (a skip the ad allows, a close; else the
    /// end, or where stalls left it) — and nothing of the viewer's own. A session whose media is not ready in time
    /// plays nothing and asks for nothing.
    public func serverEvents(of scenario: FleetScenario, network: Network? = nil, insertion: ServerSideInsertion) -> [Event: Int] {
        if let network, !network.loads { return [:] }
        let duration = facts.duration
        func playhead(atClock clock: Duration) -> Duration { network?.playhead(atClock: clock) ?? clock }
        var last = network?.reach(duration: duration) ?? duration
        switch scenario.kind {
        case .skip:
            let at = playhead(atClock: scenario.at ?? .zero)
            if let offset = facts.skipOffset, at >= offset { last = at }
        case .close, .terminate: last = playhead(atClock: scenario.at ?? .zero)
        case .complete, .background, .pause, .click: break
        }
        var events: [Event: Int] = [:]
        for (name, offset, point) in ServerSideInsertion.points(duration: duration, progressOffsets: facts.progressOffsets)
        where insertion.requestPlayhead(of: insertion.segment(holding: point, duration: duration)) < last {
            events[Event(name, offset: offset), default: 0] += 1
        }
        return events
    }

    /// An ad pod's sessions in server-side mode: each ad that plays, as `events(of:pod:)` plays it, fires what the
    /// stitcher fires for it; a close ends the pod, so the ads after it fire nothing (nil).
    public static func serverEvents(of scenario: FleetScenario, pod ads: [(place: Int, facts: Facts)], insertion: ServerSideInsertion) -> [[Event: Int]?] {
        var closed = false
        return ads.map { ad in
            guard !closed else { return nil }
            let acted = ad.place == scenario.ad
            if acted, scenario.kind.endsTheBreak { closed = true }
            let own = acted ? scenario : FleetScenario(index: scenario.index, kind: .complete)
            return FleetOracle(facts: ad.facts).serverEvents(of: own, insertion: insertion)
        }
    }
}
