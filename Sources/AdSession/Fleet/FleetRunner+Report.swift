import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

extension FleetRunner {
    /// The fleet's report: expected (from the oracle, independent of the engine) against sent, delivered and
    /// received for each tracking URL, the population, checks and performance.
    func report(_ prepared: FleetAd, timeline: MediaTimeline, rules: PlaybackRules, plan: TrackingPlan,
                        targets: [TrackingPlan.Target], tally: FleetTally, hits: [String]?, seconds: Double,
                        warnings: [String]) async -> FleetReport {
        let configuration = self.configuration
        let facts = FleetOracle.Facts(duration: timeline.info.exactDuration, progressOffsets: rules.progressOffsets,
                                      skipOffset: rules.skipOffset, hasEndCard: rules.hasEndCard,
                                      endCardAfterSkip: rules.endCardAfterSkip, hasClickThrough: rules.hasClickThrough, icons: rules.icons)
        let oracle = FleetOracle(facts: facts)
        let scenarioFacts = FleetScenario.Facts(duration: facts.duration, skipOffset: facts.skipOffset)
        var expectedEvents: [FleetOracle.Event: Int] = [:]
        // Each network of the mix, as the oracle sees it: whether the media loads in time, and its stalls.
        let timeout = configuration.session.network?.mediaTimeout ?? SessionConfiguration.NetworkConditions.defaultMediaTimeout
        let firstPicture = timeline.frames.firstIndex { $0.type == .video } ?? 0
        let after = timeline.frames.dropFirst(firstPicture + 1).map(\.time)
        let networks = prepared.deliveries.map { FleetOracle.Network(frames: after, duration: timeline.info.exactDuration, delivery: $0, mediaTimeout: timeout) }
        var failedToLoad = 0
        for index in configuration.shard.indices(of: configuration.sessions) {
            let scenario = FleetScenario.draw(index: index, seed: configuration.session.seed, mix: configuration.mix, facts: scenarioFacts)
            let network = configuration.networkMix.map { networks[$0.draw(index: index, seed: configuration.session.seed)] }
            if network?.loads == false { failedToLoad += 1 }
            for (event, count) in oracle.events(of: scenario, network: network) { expectedEvents[event, default: 0] += count }
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
        // A session whose media is not ready in time fires the ad's Error URLs (402) instead.
        if failedToLoad > 0 {
            for target in prepared.plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [] {
                if let index = keys.firstIndex(of: FleetTally.key(event: target.event, source: target.source.description, template: target.url)) {
                    expected[index] += failedToLoad
                }
            }
        }
        let sent = await tally.sent, delivered = await tally.delivered
        let received = await hits.asyncMap { await tally.received(hits: $0) }
        var beacons: [FleetReport.Beacon] = []
        for (index, target) in targets.enumerated() {
            let offset = target.event == "progress" ? plan.progress.first { $0.targets.contains { $0.url == target.url } }?.at.seconds : nil
            beacons.append(FleetReport.Beacon(event: target.event, source: target.source.description, template: target.url, offset: offset,
                                              expected: expected[index], sent: sent[index], delivered: delivered[index],
                                              received: received?.perKey[index]))
        }
        let population = FleetReport.Population(
            scenarios: await tally.scenarios, endings: await tally.endings, rewardsGranted: await tally.rewardsGranted,
            rewardsForfeited: await tally.rewardsForfeited, events: await tally.events, beacons: beacons,
            failures: await tally.failures, unexpected: received?.unexpected,
            networks: configuration.networkMix == nil ? nil : await tally.networks)
        let latency = FleetReport.latency(of: await tally.latency)
        let performance = FleetReport.Performance(
            seconds: seconds, decodeSeconds: prepared.decodeSeconds,
            sessionsPerSecond: seconds > 0 ? Double(sessions) / seconds : 0,
            beaconsPerSecond: seconds > 0 ? Double(sent.reduce(0, +)) / seconds : 0,
            latency: latency, peakRSSMiB: FleetReport.peakRSSMiB())
        let fleet = FleetReport.Fleet(
            tag: configuration.session.tag, sessions: configuration.sessions, seed: configuration.session.seed,
            mix: configuration.mix.description, shardCount: configuration.shard.count, shards: [configuration.shard.index],
            media: prepared.mediaURL, duration: timeline.info.exactDuration.seconds,
            decodeEach: configuration.decodeEach, dryRun: configuration.session.dryRun, networkMix: configuration.networkMix?.description)
        return FleetReport(fleet: fleet, population: population, checks: FleetReport.checks(of: population), performance: performance,
                           warnings: warnings)
    }
}
