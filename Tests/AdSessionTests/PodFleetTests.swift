import Foundation
import Testing
import TestSupport
@testable import AdSession
import PlayerEngine

/// Issue 17 item 6: a fleet's scenarios act on a pod (each on one ad, `at` from that ad's first frame), and the
/// oracle predicts each pod ad's events. Drawn scenarios are played through the real session (real tag, real FFmpeg
/// decode of every pod ad, virtual clock) and each ad's events must be what the oracle says.
@Suite(.hangLimit) struct PodFleetTests {
    /// media/pods/pod.xml: three 5 s ads, progress at 2 s, ad 2 skippable at 2 s, no click-through, no end card.
    static func facts(skipOffset: Duration?) -> FleetOracle.Facts {
        FleetOracle.Facts(duration: .seconds(5), progressOffsets: [.seconds(2)], skipOffset: skipOffset, hasEndCard: false,
                          endCardAfterSkip: true, hasClickThrough: false)
    }

    @Test func podScenarios_areDrawnPerAd_deterministically_andSingleAdDrawsAreUnchanged() throws {
        let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:1,close:1")
        let single = FleetScenario.Facts(duration: .seconds(5), skipOffset: nil)
        let pod: [(place: Int?, facts: FleetScenario.Facts)] = [(1, single), (2, .init(duration: .seconds(5), skipOffset: .seconds(2))), (3, single)]
        let first = (0..<300).map { FleetScenario.draw(index: $0, seed: 3, mix: mix, pod: pod) }
        #expect(first == (0..<300).map { FleetScenario.draw(index: $0, seed: 3, mix: mix, pod: pod) })
        #expect(Set(first.compactMap(\.ad)) == [1, 2, 3] && first.filter { $0.kind == .complete }.allSatisfy { $0.ad == nil })
        #expect(first.filter { $0.kind != .complete }.allSatisfy { $0.ad != nil })
        // A single ad draws what it drew before pods: the same scenario through either entry point.
        #expect((0..<300).map { FleetScenario.draw(index: $0, seed: 3, mix: mix, facts: single) }
                == (0..<300).map { FleetScenario.draw(index: $0, seed: 3, mix: mix, pod: [(nil, single)]) })
        let skip = try #require(first.first { $0.kind == .skip && $0.ad == 2 })
        #expect(skip.script.steps.allSatisfy { $0.ad == 2 } && skip.at.map { $0 >= .seconds(2) } == true)
    }

    @Test func everyPodAd_firesExactlyWhatTheOracleSays_forDrawnScenarios() async throws {
        let mix = try FleetMix(parsing: "complete:1,background:1,pause:1,click:1,skip:2,close:2,terminate:2")
        let pod: [(place: Int?, facts: FleetScenario.Facts)] = [1, 2, 3].map { ($0, .init(duration: .seconds(5), skipOffset: $0 == 2 ? .seconds(2) : nil)) }
        let oracle: [(place: Int, facts: FleetOracle.Facts)] = [1, 2, 3].map { ($0, Self.facts(skipOffset: $0 == 2 ? .seconds(2) : nil)) }
        let tracked: Set<PlaybackEvent.Name> = [.loaded, .impression, .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete,
                                                .progress, .pause, .resume, .skip, .click, .closeLinear, .endCardShown]
        var kinds: Set<FleetScenario.Kind> = []
        for index in 0..<60 {
            let scenario = FleetScenario.draw(index: index, seed: 5, mix: mix, pod: pod)
            kinds.insert(scenario.kind)
            var configuration = SessionConfiguration(tag: Repo.media("pods/pod.xml"))
            configuration.dryRun = true
            configuration.script = scenario.script
            let recorder = Recorder()
            _ = await AdSessionRunner(configuration: configuration, environment: SessionKit().environment(configuration).0).run { await recorder.add($0) }
            var fired: [Int: [FleetOracle.Event: Int]] = [:]
            for event in await recorder.events where tracked.contains(event.name) {
                fired[event.ad?.index ?? 0, default: [:]][FleetOracle.Event(event.name, offset: event.offset, icon: event.icon), default: 0] += 1
            }
            let expected = FleetOracle.events(of: scenario, pod: oracle)
            for (position, place) in [1, 2, 3].enumerated() {
                #expect((fired[place] ?? [:]) == (expected[position] ?? [:]), "scenario \(scenario), ad \(place)")
            }
        }
        #expect(kinds == Set(FleetScenario.Kind.allCases))
    }
}
