import Networking
import Primitives
import Foundation
@_spi(LiveParts) import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons
@testable import AdSession

/// Fleet mode's pure parts: the mix, the seeded scenarios, the oracle of what they imply, and the oracle against the
/// real engine on a real clip's timeline.
@Suite struct FleetScenarioTests {
    static let facts = FleetScenario.Facts(duration: .seconds(10), skipOffset: .seconds(5))

    @Test func mix_parsesWeights_andRefusesWhatItCannotUse() throws {
        let mix = try FleetMix(parsing: "complete:70,background:15,skip:10,close:5")
        #expect(mix.total == 100 && mix.description == "complete:70,background:15,skip:10,close:5")
        for (text, message) in [("complete:70,jump:30", "KIND one of"), ("complete:x", "whole number"), ("complete:0", "at least one positive"),
                                ("complete:1,complete:2", "names complete twice"), ("complete", "KIND:WEIGHT")] {
            #expect(throws: FleetMix.ParseError.self) { try FleetMix(parsing: text) }
            do { _ = try FleetMix(parsing: text) } catch { #expect(error.description.contains(message), "\(text): \(error)") }
        }
    }

    @Test func draw_isTheSameForTheSameSeedAndIndex_andDiffersWithTheSeed() throws {
        let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:1,close:1")
        let first = (0..<500).map { FleetScenario.draw(index: $0, seed: 42, mix: mix, facts: Self.facts) }
        let again = (0..<500).map { FleetScenario.draw(index: $0, seed: 42, mix: mix, facts: Self.facts) }
        let other = (0..<500).map { FleetScenario.draw(index: $0, seed: 43, mix: mix, facts: Self.facts) }
        #expect(first == again)
        #expect(first != other)
        // Every index draws on its own: the shard a session runs in cannot change it.
        #expect((0..<500).filter { $0 % 3 == 1 }.map { FleetScenario.draw(index: $0, seed: 42, mix: mix, facts: Self.facts) }
            == first.enumerated().filter { $0.offset % 3 == 1 }.map(\.element))
    }

    @Test func draw_honoursTheMix_withinTheSpreadOfTheDraw() throws {
        let mix = try FleetMix(parsing: "complete:70,background:15,skip:10,close:5")
        let n = 10_000
        var counts: [FleetScenario.Kind: Int] = [:]
        for index in 0..<n { counts[FleetScenario.draw(index: index, seed: 7, mix: mix, facts: Self.facts).kind, default: 0] += 1 }
        #expect(counts.values.reduce(0, +) == n)
        #expect(counts[.pause] == nil && counts[.click] == nil, "kinds outside the mix never happen")
        for share in mix.shares {
            let p = Double(share.weight) / 100
            let expected = p * Double(n), sigma = (Double(n) * p * (1 - p)).squareRoot()
            #expect(abs(Double(counts[share.kind] ?? 0) - expected) < 4.5 * sigma, "\(share.kind): \(counts[share.kind] ?? 0) of \(n)")
        }
    }

    @Test func draw_keepsEveryTimeInsideItsStatedRange() throws {
        let mix = try FleetMix(parsing: "background:1,pause:1,click:1,skip:1,close:1,terminate:1")
        for index in 0..<3_000 {
            let scenario = FleetScenario.draw(index: index, seed: 9, mix: mix, facts: Self.facts)
            let at = try #require(scenario.at)
            switch scenario.kind {
            case .background:
                #expect(at >= .milliseconds(500) && at < .milliseconds(9_500))
                #expect(scenario.length! >= .seconds(1) && scenario.length! < .seconds(30))
            case .pause:
                #expect(at >= .milliseconds(500) && at < .milliseconds(9_500))
                #expect(scenario.length! >= .milliseconds(500) && scenario.length! < .seconds(10))
            case .click:
                #expect(at >= .milliseconds(500) && at < .milliseconds(9_500))
                #expect(scenario.length! >= .seconds(1) && scenario.length! < .seconds(10))
            case .skip:
                #expect(at >= .seconds(5) && at < .seconds(10), "between the skip offset and the end")
            case .close, .terminate:
                #expect(at >= .milliseconds(200) && at < .milliseconds(9_800))
            case .complete:
                Issue.record("complete is not in this mix")
            }
        }
    }

    // MARK: - The oracle

    static let oracleFacts = FleetOracle.Facts(duration: .seconds(10), progressOffsets: [.seconds(2), .seconds(3)], skipOffset: .seconds(5),
                                               hasEndCard: true, endCardAfterSkip: true, hasClickThrough: true)

    func counts(_ scenario: FleetScenario, _ facts: FleetOracle.Facts = Self.oracleFacts) -> [String: Int] {
        var result: [String: Int] = [:]
        for (event, count) in FleetOracle(facts: facts).events(of: scenario) {
            result[event.name.rawValue + (event.offset.map { "@\($0.components.seconds)" } ?? ""), default: 0] += count
        }
        return result
    }

    @Test func oracle_complete_isEveryBoundaryOnceThenTheEndCardAndItsClose() {
        #expect(counts(FleetScenario(index: 0, kind: .complete)) == [
            "loaded": 1, "impression": 1, "creativeView": 1, "start": 1, "progress@2": 1, "firstQuartile": 1, "progress@3": 1,
            "midpoint": 1, "thirdQuartile": 1, "complete": 1, "endCardShown": 1, "closeLinear": 1,
        ])
    }

    @Test func oracle_closeAt4s_firesWhatItReachedAndCloseLinear() {
        let events = counts(FleetScenario(index: 0, kind: .close, at: .seconds(4)))
        #expect(events["progress@3"] == 1 && events["firstQuartile"] == 1 && events["midpoint"] == nil && events["complete"] == nil)
        #expect(events["closeLinear"] == 1 && events["endCardShown"] == nil)
    }

    @Test func oracle_skipExactlyAtABoundary_stillFiresTheBoundary() {
        let events = counts(FleetScenario(index: 0, kind: .skip, at: .milliseconds(7_500)))
        #expect(events["thirdQuartile"] == 1 && events["skip"] == 1 && events["complete"] == nil && events["endCardShown"] == 1)
        var noCard = Self.oracleFacts
        noCard.endCardAfterSkip = false
        #expect(counts(FleetScenario(index: 0, kind: .skip, at: .seconds(6)), noCard)["closeLinear"] == nil)
    }

    @Test func oracle_skipOnAnAdThatIsNotSkippable_playsToTheEnd() {
        var facts = Self.oracleFacts
        facts.skipOffset = nil
        let events = counts(FleetScenario(index: 0, kind: .skip, at: .seconds(6)), facts)
        #expect(events["skip"] == nil && events["complete"] == 1)
    }

    @Test func oracle_interruptions_areOnePauseAndOneResume_clickWithoutClickThroughIsNone() {
        for kind in [FleetScenario.Kind.background, .pause, .click] {
            let events = counts(FleetScenario(index: 0, kind: kind, at: .seconds(3), length: .seconds(2)))
            #expect(events["pause"] == 1 && events["resume"] == 1 && events["complete"] == 1, "\(kind)")
        }
        var facts = Self.oracleFacts
        facts.hasClickThrough = false
        let events = counts(FleetScenario(index: 0, kind: .click, at: .seconds(3), length: .seconds(2)), facts)
        #expect(events["click"] == 1 && events["pause"] == nil)
    }

    // MARK: - The oracle against the engine

    /// Thousands of drawn scenarios played by the real engine on the demo clip's real timeline (one FFmpeg decode):
    /// every session fires exactly the events the oracle says, so a fleet's "expected" column is worked out right.
    @Test func engine_firesExactlyWhatTheOracleSays_forEveryDrawnScenario() async throws {
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")))
        let duration = timeline.info.exactDuration
        for hasEndCard in [true, false] {
            var rules = PlaybackRules(duration: duration)
            rules.progressOffsets = [.seconds(2), .milliseconds(3_333), duration]
            rules.skipOffset = .seconds(5)
            rules.reward = Reward(currency: "Coins", amount: 1)
            rules.hasEndCard = hasEndCard
            // Icons at the first frame, mid-play with a duration, and at the very end (never shown).
            rules.icons = [.init(), .init(offset: .seconds(4), duration: .seconds(2)), .init(offset: duration)]
            let facts = FleetOracle.Facts(duration: duration, progressOffsets: rules.progressOffsets, skipOffset: rules.skipOffset,
                                          hasEndCard: hasEndCard, endCardAfterSkip: true, hasClickThrough: true, icons: rules.icons)
            let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:1,close:1")
            let tracked = Set(FleetOracle(facts: facts).events(of: FleetScenario(index: 0, kind: .complete)).keys.map(\.name))
                .union([.pause, .resume, .skip, .click])
            for index in 0..<300 {
                let scenario = FleetScenario.draw(index: index, seed: 11, mix: mix, facts: .init(duration: duration, skipOffset: rules.skipOffset))
                var fired: [FleetOracle.Event: Int] = [:]
                _ = try await PlaybackEngine(configuration: .init(rules: rules)).play(TimelineMediaSource(timeline), script: scenario.script, on: VirtualClock()) { event in
                    guard tracked.contains(event.name) else { return }
                    fired[FleetOracle.Event(event.name, offset: event.offset, icon: event.icon), default: 0] += 1
                }
                #expect(fired == FleetOracle(facts: facts).events(of: scenario), "scenario \(scenario)")
            }
        }
    }

    /// Viewability by the MRC rule (and undetermined): every drawn scenario's viewable / notViewable /
    /// viewUndetermined, played by the real engine, is what the oracle says.
    @Test func engine_decidesViewabilityAsTheOracleSays_forEveryDrawnScenario() async throws {
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: Repo.media("clip-10s-360p.mp4")))
        let duration = timeline.info.exactDuration
        let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:1,close:1")
        let names: Set<PlaybackEvent.Name> = [.viewable, .notViewable, .viewUndetermined]
        for viewability in [PlaybackRules.Viewability.measured, .undetermined] {
            for hasClickThrough in [true, false] {
                var rules = PlaybackRules(duration: duration)
                rules.skipOffset = .seconds(1)
                rules.viewability = viewability
                rules.hasClickThrough = hasClickThrough
                var facts = FleetOracle.Facts(duration: duration, progressOffsets: [], skipOffset: rules.skipOffset, hasEndCard: false,
                                              endCardAfterSkip: true, hasClickThrough: hasClickThrough)
                facts.viewability = viewability
                var seen: Set<PlaybackEvent.Name> = []
                for index in 0..<100 {
                    let scenario = FleetScenario.draw(index: index, seed: 21, mix: mix, facts: .init(duration: duration, skipOffset: rules.skipOffset))
                    var fired: [FleetOracle.Event: Int] = [:]
                    _ = try await PlaybackEngine(configuration: .init(rules: rules)).play(TimelineMediaSource(timeline), script: scenario.script, on: VirtualClock()) { event in
                        guard names.contains(event.name) else { return }
                        fired[FleetOracle.Event(event.name), default: 0] += 1
                        seen.insert(event.name)
                    }
                    let expected = FleetOracle(facts: facts).events(of: scenario).filter { names.contains($0.key.name) }
                    #expect(fired == expected, "\(viewability), click-through \(hasClickThrough), scenario \(scenario)")
                }
                #expect(seen == (viewability == .measured ? [.viewable, .notViewable] : [.viewUndetermined]), "both outcomes drawn: \(seen)")
            }
        }
    }

    /// The same on simulated networks: stalls that delay skips and closes, and a rate that drops to 0 for good (the
    /// play is abandoned where the media stopped). The oracle works the stalls out from the frames and the download,
    /// the engine from its clock; every drawn scenario must agree.
    @Test func engine_onSimulatedNetworks_firesExactlyWhatTheOracleSays() async throws {
        let clip = Repo.media("clip-10s-360p.mp4")
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: clip))
        let map = try FFmpegMediaSource.deliveryMap(location: clip, options: MediaOpenOptions(openDecoders: false, measureTimeline: false),
                                                    timelineStart: timeline.info.timeline.start)
        let duration = timeline.info.exactDuration
        let profiles = [try NetworkProfile(parsing: "kbps=150,rtt=100"), try NetworkProfile(parsing: "kbps=190"),
                        NetworkProfile(name: "drop", rtt: .zero, steps: [.init(at: .zero, kbps: 300), .init(at: .seconds(3), kbps: 0)])]
        var rules = PlaybackRules(duration: duration)
        rules.progressOffsets = [.seconds(2), .milliseconds(3_333), duration]
        rules.skipOffset = .seconds(5)
        rules.reward = Reward(currency: "Coins", amount: 1)
        rules.hasEndCard = true
        rules.icons = [.init(offset: .seconds(6))]
        let facts = FleetOracle.Facts(duration: duration, progressOffsets: rules.progressOffsets, skipOffset: rules.skipOffset,
                                      hasEndCard: true, endCardAfterSkip: true, hasClickThrough: true, icons: rules.icons)
        let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:2,close:2")
        let tracked = Set(FleetOracle(facts: facts).events(of: FleetScenario(index: 0, kind: .complete)).keys.map(\.name))
            .union([.pause, .resume, .skip, .click])
        let firstPicture = timeline.frames.firstIndex { $0.type == .video } ?? 0
        let after = timeline.frames.dropFirst(firstPicture + 1).map(\.time)
        var stalledSessions = 0
        for profile in profiles {
            let delivery = MediaDelivery(profile: profile, map: map)
            let network = FleetOracle.Network(frames: after, duration: duration, delivery: delivery, mediaTimeout: .seconds(8))
            #expect(network.loads && !network.stalls.isEmpty, "\(profile) stalls: \(network.stalls)")
            for index in 0..<150 {
                let scenario = FleetScenario.draw(index: index, seed: 13, mix: mix, facts: .init(duration: duration, skipOffset: rules.skipOffset))
                var fired: [FleetOracle.Event: Int] = [:]
                var stalls = 0
                _ = try await PlaybackEngine(configuration: .init(rules: rules, delivery: delivery))
                    .play(TimelineMediaSource(timeline), script: scenario.script, on: VirtualClock()) { event in
                        if event.name == .bufferStart { stalls += 1 }
                        guard tracked.contains(event.name) else { return }
                        fired[FleetOracle.Event(event.name, offset: event.offset, icon: event.icon), default: 0] += 1
                    }
                if stalls > 0 { stalledSessions += 1 }
                #expect(fired == FleetOracle(facts: facts).events(of: scenario, network: network), "\(profile), scenario \(scenario)")
            }
        }
        #expect(stalledSessions > 250, "most sessions stall on these networks: \(stalledSessions)")
    }
}


/// A fleet's requests in flight are split among its dispatchers (one per event loop) without exceeding
/// `--beacon-concurrency`.
@Suite struct FleetConcurrencyShareTests {
    @Test func shares_addUpToTheBound_eachAtLeastOne() {
        #expect(FleetRunner.shares(of: 64, among: 2) == [32, 32])
        #expect(FleetRunner.shares(of: 5, among: 2) == [3, 2])
        #expect(FleetRunner.shares(of: 1, among: 2) == [1], "one request in flight: one dispatcher, not one each")
        #expect(FleetRunner.shares(of: 7, among: 1) == [7])
    }

    /// Answers after a short wait and keeps the most requests it ever had at once.
    final class ConcurrencyMeter: BeaconTransport {
        let counts = Locked((now: 0, most: 0))
        func send(_ url: String, timeout: Duration) async -> TransportOutcome {
            counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try? await Task.sleep(for: .milliseconds(2))
            counts.withLock { $0.now -= 1 }
            return TransportOutcome(status: 204, error: nil, latency: .milliseconds(2), bytes: 0)
        }
    }

    @Test func aFleetOnTwoEventLoops_keepsOneRequestInFlight_whenTheBoundIsOne() async throws {
        var session = SessionConfiguration(tag: Repo.media("demo.xml"))
        session.beaconPolicy.maxConcurrent = 1
        let meter = ConcurrencyMeter()
        var environment = SessionEnvironment.live(session)
        environment.beaconTransport = meter
        environment.sessionExecutors = [EventLoopTaskExecutor.shared[0], EventLoopTaskExecutor.shared[EventLoopTaskExecutor.shared.count - 1]]
        var fleet = FleetConfiguration(session: session, sessions: 12, mix: try FleetMix(parsing: "complete:1"))
        fleet.concurrency = 4
        let report = try await FleetRunner(configuration: fleet, environment: environment).run().get()
        #expect(report.checks.sentAsExpected)
        #expect(meter.counts.withLock { $0.most } == 1, "at most one request in flight: \(meter.counts.withLock { $0 })")
    }
}
