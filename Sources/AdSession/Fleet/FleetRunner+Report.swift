import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

extension FleetRunner {
    /// The fleet's report: expected (from the oracle, independent of the engine) against sent, delivered and
    /// received for each tracking URL, the population, checks and performance.
    func report(_ prepared: FleetAd, timeline: MediaTimeline, rules: PlaybackRules, plan: TrackingPlan,
                        targets: [TrackingPlan.Target], tally: FleetTally, seconds: Double,
                        warnings: [String]) async -> FleetReport {
        let configuration = self.configuration
        let facts = FleetOracle.Facts(duration: timeline.info.exactDuration, progressOffsets: rules.progressOffsets,
                                      skipOffset: rules.skipOffset, hasEndCard: rules.hasEndCard,
                                      endCardAfterSkip: rules.endCardAfterSkip, hasClickThrough: rules.hasClickThrough, icons: rules.icons)
        var oracleFacts = facts
        oracleFacts.viewability = rules.viewability
        let oracle = FleetOracle(facts: oracleFacts)
        let scenarioFacts = FleetScenario.Facts(duration: facts.duration, skipOffset: facts.skipOffset)
        var expectedEvents: [FleetOracle.Event: Int] = [:]
        // Each network of the mix, as the oracle sees it: whether the media loads in time, and its stalls.
        let timeout = configuration.session.network?.mediaTimeout ?? SessionConfiguration.NetworkConditions.defaultMediaTimeout
        let firstPicture = timeline.frames.firstIndex { $0.type == .video } ?? 0
        let after = timeline.frames.dropFirst(firstPicture + 1).map(\.time)
        let networks = prepared.deliveries.map { FleetOracle.Network(frames: after, duration: timeline.info.exactDuration, delivery: $0, mediaTimeout: timeout) }
        var failedToLoad = 0
        var rewards = 0
        for index in configuration.shard.indices(of: configuration.sessions) {
            let scenario = FleetScenario.draw(index: index, seed: configuration.session.seed, mix: configuration.mix, facts: scenarioFacts)
            let network = configuration.networkMix.map { networks[$0.draw(index: index, seed: configuration.session.seed)] }
            if network?.loads == false { failedToLoad += 1 }
            let viewer = oracle.events(of: scenario, network: network)
            // Server-side mode: the stitcher's beacons, by the segments the player asked for.
            let events = configuration.session.serverSide.map { oracle.serverEvents(of: scenario, network: network, insertion: $0) } ?? viewer
            for (event, count) in events { expectedEvents[event, default: 0] += count }
            // Granted at complete (a fleet's threshold): a skip or close before it forfeits the reward. (The viewer's
            // complete, whoever fires the beacons.)
            if viewer[FleetOracle.Event(.complete)] != nil { rewards += 1 }
        }
        var expected = Array(repeating: 0, count: targets.count)
        let keys = targets.map { FleetTally.key(event: $0.event, source: $0.source.description, template: $0.url) }
        for (event, count) in expectedEvents {
            var playbackEvent = PlaybackEvent(name: event.name, playhead: event.offset ?? .zero, clock: event.offset ?? .zero, offset: event.offset)
            playbackEvent.icon = event.icon
            for target in plan.targets(for: playbackEvent) {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += count
                }
            }
        }
        // Every session fires the prelude (failed chains' Error URLs, verificationNotExecuted) once.
        let sessions = configuration.shard.indices(of: configuration.sessions).underestimatedCount
        for beacons in prepared.plan.steps.preludeBeacons {
            for target in beacons.targets {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += sessions
                }
            }
        }
        // A VMAP break's end: once a session, after its ads.
        for target in prepared.breakEnd {
            if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                expected[index] += sessions
            }
        }
        // A session whose media is not ready in time fires the ad's Error URLs (402) instead.
        if failedToLoad > 0 {
            for target in prepared.plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [] {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += failedToLoad
                }
            }
        }
        let offsets = targets.map { target in target.event == "progress" ? plan.progress.first { $0.targets.contains { $0.url == target.url } }?.at.seconds : nil }
        return await finish(prepared, targets: targets.map { ($0, nil) }, offsets: offsets, expected: expected, rewards: rewards, tally: tally, 
                            seconds: seconds, duration: timeline.info.exactDuration, warnings: warnings)
    }

    /// The report of a fleet whose ad cannot play: every session fires what comes before playback once (failed
    /// chains' and the ad's own Error URLs, verificationNotExecuted), and nothing plays.
    func failureReport(_ prepared: FleetAd, targets: [TrackingPlan.Target], tally: FleetTally, seconds: Double,
                       warnings: [String]) async -> FleetReport {
        let keys = targets.map { FleetTally.key(event: $0.event, source: $0.source.description, template: $0.url) }
        var expected = Array(repeating: 0, count: targets.count)
        let sessions = configuration.shard.indices(of: configuration.sessions).underestimatedCount
        for beacons in prepared.plan.steps.preludeBeacons {
            for target in beacons.targets {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += sessions
                }
            }
        }
        return await finish(prepared, targets: targets.map { ($0, nil) }, offsets: targets.map { _ in nil }, expected: expected, rewards: 0,
                            tally: tally, seconds: seconds, duration: .zero, warnings: warnings)
    }

    /// An ad pod's report: each ad's expected counts from the oracle (`FleetOracle.events(of:pod:)`): the scenario
    /// acts on one ad, the others play to their end, a close ends the pod; an ad that cannot play fires its error when
    /// its turn comes, if the pod gets there; what fires before the pod, once per session.
    func podReport(_ prepared: FleetAd, targets: [(target: TrackingPlan.Target, ad: Int?)], tally: FleetTally, 
                   seconds: Double, warnings: [String]) async -> FleetReport {
        let configuration = self.configuration
        let keys = targets.map { FleetTally.key(event: $0.target.event, source: $0.target.source.description, template: $0.target.url, ad: $0.ad) }
        var expected = Array(repeating: 0, count: targets.count)
        func add(_ target: TrackingPlan.Target, ad: Int?, _ count: Int) {
            if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url, ad: ad)) {
                expected[index] += count
            }
        }
        let playing = prepared.pod.filter(\.plays)
        let oracleFacts = playing.map { part -> (place: Int, facts: FleetOracle.Facts) in
            let rules = part.plan.playback?.rules ?? PlaybackRules()
            var facts = FleetOracle.Facts(duration: part.media?.timeline.info.exactDuration ?? .zero, progressOffsets: rules.progressOffsets,
                                          skipOffset: rules.skipOffset, hasEndCard: rules.hasEndCard, endCardAfterSkip: rules.endCardAfterSkip,
                                          hasClickThrough: rules.hasClickThrough, icons: rules.icons)
            facts.viewability = rules.viewability
            return (part.place.index, facts)
        }
        let scenarioFacts = Self.scenarioFacts(of: prepared)
        /// Per pod part: the events it fires over all sessions, and how many sessions reached its turn.
        var events = Array(repeating: [FleetOracle.Event: Int](), count: prepared.pod.count)
        var reached = Array(repeating: 0, count: prepared.pod.count)
        var rewards = 0
        for index in configuration.shard.indices(of: configuration.sessions) {
            let scenario = FleetScenario.draw(index: index, seed: configuration.session.seed, mix: configuration.mix, pod: scenarioFacts)
            let viewer = FleetOracle.events(of: scenario, pod: oracleFacts)
            // Server-side mode: the stitcher's beacons, by the segments the player asked for of each ad.
            let perAd = configuration.session.serverSide.map { FleetOracle.serverEvents(of: scenario, pod: oracleFacts, insertion: $0) } ?? viewer
            // The pod's reward: granted when its last ad completes, unless a skip or close forfeited it before.
            if viewer.allSatisfy({ $0?[FleetOracle.Event(.complete)] != nil }) { rewards += 1 }
            var position = 0
            var ended = false
            for (part, ad) in prepared.pod.enumerated() {
                defer { if ad.plays { position += 1 } }
                guard !ended else { continue }
                reached[part] += 1
                guard ad.plays, let fired = perAd[position] else { continue }
                for (event, count) in fired { events[part][event, default: 0] += count }
                if scenario.kind.endsTheBreak, scenario.ad == ad.place.index { ended = true }
            }
        }
        for (part, ad) in prepared.pod.enumerated() {
            if let plan = ad.plan.playback?.plan {
                for (event, count) in events[part] {
                    var playbackEvent = PlaybackEvent(name: event.name, playhead: event.offset ?? .zero, clock: event.offset ?? .zero, offset: event.offset)
                    playbackEvent.icon = event.icon
                    for target in plan.targets(for: playbackEvent) { add(target, ad: ad.place.index, count) }
                }
            }
            for beacons in ad.plan.steps.preludeBeacons {
                for target in beacons.targets { add(target, ad: ad.place.index, reached[part]) }
            }
        }
        let sessions = configuration.shard.indices(of: configuration.sessions).underestimatedCount
        for beacons in prepared.plan.steps.preludeBeacons {
            for target in beacons.targets { add(target, ad: nil, sessions) }
        }
        for target in prepared.breakEnd { add(target, ad: nil, sessions) }
        let offsets = targets.map { item -> Double? in
            guard item.target.event == "progress", let part = prepared.pod.first(where: { $0.place.index == item.ad && $0.plays }), let plan = part.plan.playback?.plan else { return nil }
            return plan.progress.first { $0.targets.contains { $0.url == item.target.url } }?.at.seconds
        }
        let duration = playing.reduce(Duration.zero) { $0 + ($1.media?.timeline.info.exactDuration ?? .zero) }
        return await finish(prepared, targets: targets, offsets: offsets, expected: expected, rewards: rewards, tally: tally, seconds: seconds,
                            duration: duration, warnings: warnings)
    }

    /// The report's counts and measures, once the expected counts are known.
    /// `rewards`: the sessions the oracle says grant the reward (each sends the reward callback, when configured).
    private func finish(_ prepared: FleetAd, targets: [(target: TrackingPlan.Target, ad: Int?)], offsets: [Double?], expected: [Int], rewards: Int,
                        tally: FleetTally, seconds: Double, duration: Duration, warnings: [String]) async -> FleetReport {
        let configuration = self.configuration
        let counts = tally.snapshot
        let sent = counts.sent, delivered = counts.delivered
        let received = tally.reconciler?.received(rows: sent.count)
        var beacons: [FleetReport.Beacon] = []
        for (index, item) in targets.enumerated() {
            let target = item.target
            beacons.append(FleetReport.Beacon(event: target.event, source: target.source.description, template: target.url, offset: offsets[index],
                                              expected: expected[index], sent: sent[index], delivered: delivered[index],
                                              received: received?.perKey[index], ad: item.ad))
        }
        if let row = Self.rewardCallbackRow(of: prepared, session: configuration.session), sent.count > targets.count {
            let index = targets.count
            beacons.append(FleetReport.Beacon(event: row.event, source: row.source, template: row.template, offset: nil, expected: rewards,
                                              sent: sent[index], delivered: delivered[index], received: received?.perKey[index], ad: row.ad))
        }
        let population = FleetReport.Population(
            scenarios: counts.scenarios, endings: counts.endings, rewardsGranted: counts.rewardsGranted,
            rewardsForfeited: counts.rewardsForfeited, events: counts.eventsByName, beacons: beacons,
            failures: counts.failures, unexpected: received?.unexpected,
            networks: configuration.networkMix == nil ? nil : counts.networks,
            viewability: FleetReport.Viewability.of(events: counts.eventsByName),
            serverSide: configuration.session.serverSide == nil ? nil : counts.stitched)
        let latency = FleetReport.latency(of: counts.latency)
        let performance = FleetReport.Performance(
            seconds: seconds, decodeSeconds: prepared.decodeSeconds,
            sessionsPerSecond: seconds > 0 ? Double(counts.sessionsDone) / seconds : 0,
            beaconsPerSecond: seconds > 0 ? Double(sent.reduce(0, +)) / seconds : 0,
            latency: latency, peakRSSMiB: FleetReport.peakRSSMiB(), latencyBySecond: counts.latencyBySecond.timeline)
        let fleet = FleetReport.Fleet(
            tag: configuration.session.tag, sessions: configuration.sessions, seed: configuration.session.seed,
            mix: configuration.mix.description, shardCount: configuration.shard.count, shards: [configuration.shard.index],
            media: prepared.mediaURL, duration: duration.seconds,
            decodeEach: configuration.decodeEach, dryRun: configuration.session.dryRun, networkMix: configuration.networkMix?.description)
        return FleetReport(fleet: fleet, population: population, checks: FleetReport.checks(of: population), performance: performance,
                           warnings: warnings)
    }
}
