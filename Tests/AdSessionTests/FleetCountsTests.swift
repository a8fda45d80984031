import Testing
import PlayerEngine
import TrackingBeacons
@testable import AdSession

/// A fleet counts per hold (one per event loop) and merges the holds' counts at the end: the merged counts must be
/// exactly those one shared tally would have kept.
struct FleetCountsTests {
    /// Something counted: a beacon sent, one of its attempts' records, an event, a session's end.
    enum Input {
        case sent(row: Int?)
        case record(BeaconRecord, row: Int?)
        case event(PlaybackEvent.Name)
        case finished(FleetScenario, network: String?, report: PlaybackReport?)
    }

    static func count(_ input: Input, in counts: inout FleetTally.Counts) {
        switch input {
        case let .sent(row): counts.countSent(row: row)
        case let .record(record, row): counts.count(record, row: row)
        case let .event(name): counts.events[name, default: 0] += 1
        case let .finished(scenario, network, report): counts.count(scenario, network: network, report: report)
        }
    }

    /// A record of beacon `n` (row `n % 4`, of 3 rows and one URL not listed): delivered, failed by status or by
    /// error, a retried attempt, or not sent (a dry run), with latencies of a few milliseconds.
    static func record(_ n: Int) -> Input {
        let beacon = PlannedBeacon(event: "impression", source: "inline", template: "http://t/\(n % 4)", url: "http://t/\(n % 4)",
                                   playhead: .zero, clock: .zero)
        var record = BeaconRecord(planned: beacon, dryRun: n % 11 == 0)
        if !record.dryRun {
            record.sentAt = 1
            record.latency = .milliseconds(1 + n % 13)
        }
        switch n % 5 {
        case 0: record.status = 204
        case 1: record.status = 500
        case 2: record.failure = .timedOut
        case 3: (record.status, record.isFinalAttempt) = (503, false)
        default: record.status = 200
        }
        let row = n % 4 == 3 ? nil : n % 4
        return .record(record, row: row)
    }

    /// Session `n`'s end: on one of two networks (or none), stalled or not, reaching some milestones; every seventh
    /// never played.
    static func finished(_ n: Int) -> Input {
        let scenario = FleetScenario(index: n, kind: FleetScenario.Kind.allCases[n % FleetScenario.Kind.allCases.count])
        guard n % 7 != 0 else { return .finished(scenario, network: n % 2 == 0 ? "3g" : nil, report: nil) }
        var report = PlaybackReport()
        report.events = Array(FleetReport.NetworkPopulation.milestones.prefix(n % 6)) + (n % 9 == 0 ? [.rewardForfeited] : [])
        report.ending = [.completed, .skipped, .closedEarly, nil][n % 4]
        report.rewardGranted = n % 4 == 0
        report.rebuffers = n % 3
        report.rebufferTime = .milliseconds(250 * (n % 3))  // quarter seconds: their sums are exact in any order
        return .finished(scenario, network: ["3g", "wifi", nil][n % 3], report: report)
    }

    /// A fleet's worth of inputs, interleaved as sessions on several loops would send them.
    static let inputs: [Input] = (0..<120).flatMap { n -> [Input] in
        [.sent(row: n % 4 == 3 ? nil : n % 4), record(n), .event([.start, .midpoint, .complete][n % 3])] + (n % 4 == 0 ? [finished(n / 4)] : [])
    }

    @Test func countsKeptPerHoldAndMerged_areTheCountsOfOneSharedTally() {
        var shared = FleetTally.Counts(rows: 3)
        for input in Self.inputs { Self.count(input, in: &shared) }
        for holds in [1, 2, 3, 5] {
            var perHold = Array(repeating: FleetTally.Counts(rows: 3), count: holds)
            for (n, input) in Self.inputs.enumerated() { Self.count(input, in: &perHold[(n * 7 + n / 5) % holds]) }
            var merged = perHold[0]
            for counts in perHold.dropFirst() { merged.merge(counts) }
            #expect(merged == shared, "\(holds) holds")
            #expect(perHold.dropFirst().reduce(perHold[0]) { $0.merged(with: $1) } == shared)
        }
        #expect(shared.beaconsSent == 120 && shared.sessionsDone == 30 && shared.latency.totalCount > 0, "the inputs count something")
        #expect(shared.networks.count == 2 && !shared.failures.isEmpty)
    }

    /// Two holds' counts, added field by field.
    @Test func mergingAddsRowsByIndex_dictionariesByKey_andHistogramsByBucket() {
        var a = FleetTally.Counts(rows: 2), b = FleetTally.Counts(rows: 2)
        (a.sent, a.delivered, b.sent, b.delivered) = ([3, 1], [2, 1], [4, 0], [4, 0])
        (a.failures, b.failures) = (["timeout": 1], ["timeout": 2, "HTTP 500": 1])
        (a.scenarios, b.scenarios, a.endings, b.endings) = (["complete": 2], ["skip": 1, "complete": 1], ["completed": 2], ["skipped": 1])
        (a.events, b.events) = ([.start: 2, .complete: 2], [.start: 2])
        (a.rewardsGranted, b.rewardsGranted, a.rewardsForfeited, b.rewardsForfeited) = (1, 2, 0, 1)
        (a.sessionsDone, b.sessionsDone, a.beaconsAnswered, b.beaconsAnswered, a.beaconsSent, b.beaconsSent) = (2, 2, 4, 7, 4, 7)
        _ = a.latency.record(1_000)
        _ = b.latency.record(1_000, count: 2)
        _ = b.latency.record(250_000)
        var slow = FleetReport.NetworkPopulation(), fast = FleetReport.NetworkPopulation()
        (slow.sessions, slow.failedToLoad, slow.sessionsThatStalled, slow.rebuffers, slow.stalledSeconds, slow.reached) = (2, 1, 1, 3, 1.5, ["start": 1])
        (fast.sessions, fast.reached) = (1, ["start": 1, "complete": 1])
        (a.networks, b.networks) = (["3g": slow], ["3g": slow, "wifi": fast])

        let sum = a.merged(with: b)
        #expect(sum.sent == [7, 1] && sum.delivered == [6, 1])
        #expect(sum.failures == ["timeout": 3, "HTTP 500": 1])
        #expect(sum.scenarios == ["complete": 3, "skip": 1] && sum.endings == ["completed": 2, "skipped": 1])
        #expect(sum.events == [.start: 4, .complete: 2])
        #expect((sum.rewardsGranted, sum.rewardsForfeited, sum.sessionsDone, sum.beaconsAnswered, sum.beaconsSent) == (3, 1, 4, 11, 11))
        #expect(sum.latency.totalCount == 4 && sum.latency.count(within: 1_000...1_000) == 3 && sum.latency.max >= 250_000)
        var slowTwice = FleetReport.NetworkPopulation()
        (slowTwice.sessions, slowTwice.failedToLoad, slowTwice.sessionsThatStalled, slowTwice.rebuffers, slowTwice.stalledSeconds) = (4, 2, 2, 6, 3)
        slowTwice.reached = ["start": 2]
        #expect(sum.networks == ["3g": slowTwice, "wifi": fast])
        #expect(a.merged(with: FleetTally.Counts(rows: 2)) == a, "empty counts add nothing")
    }
}
