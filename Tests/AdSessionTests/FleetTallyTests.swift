import Testing
import TrackingBeacons
import PlayerEngine
@testable import AdSession

/// The fleet's hold on its sessions: a session starts below `limit` beacons outstanding, a beacon waits at twice as
/// many, and each final answer lets one waiter go (a session's beacon before a new session).
struct FleetTallyTests {
    static func beacon(_ n: Int) -> PlannedBeacon {
        PlannedBeacon(event: "impression", source: "inline", template: "http://t/\(n)", url: "http://t/\(n)", playhead: .zero, clock: .zero)
    }

    /// The final answer of `beacon`, delivered in 2 ms.
    static func answered(_ beacon: PlannedBeacon) -> BeaconRecord {
        var record = BeaconRecord(planned: beacon, dryRun: false)
        record.sentAt = 1
        record.status = 204
        record.latency = .milliseconds(2)
        return record
    }

    /// A beacon admitted, and its row, which the fleet's dispatcher hands back with its records (`countedAt`).
    typealias Sent = (beacon: PlannedBeacon, row: Int?)

    static func admitted(_ tally: FleetTally, _ beacon: PlannedBeacon, in room: FleetTally.Room? = nil) async -> Sent {
        (beacon, await tally.admit(beacon, in: room))
    }

    /// The final answer of `sent` counted by `tally`, as the dispatcher of hold `hold` hands it over.
    static func answer(_ tally: FleetTally, _ sent: Sent, hold: Int = 0) {
        tally.record(answered(sent.beacon), countedAt: sent.row, hold: hold)
    }

    /// Yields until `condition` holds (the waiting tasks run on the cooperative pool; nothing sleeps).
    static func settle(_ condition: () -> Bool) async {
        for _ in 0..<100_000 where !condition() { await Task.yield() }
    }

    /// A session takes room for the beacons a session sends on average, in its own dispatcher's hold, and starts when
    /// that room fits under the hold's share of the bound; answers on that hold let it go, answers on another do not.
    @Test func aSessionStartsWhenItsRoomFitsInItsHold_andOnlyItsHoldsAnswersLetItGo() async throws {
        let tally = FleetTally(keys: [], limit: 4, holds: 2) { _ in nil }  // 2 a hold; beacons wait at 4 a hold
        let first = await tally.admitSession(hold: 0)  // nothing outstanding: at once (room 1: no average yet)
        var sent: [Sent] = []
        for n in 0..<3 { sent.append(await Self.admitted(tally, Self.beacon(n), in: first)) }  // 1 in its room, 2 past it
        tally.endSession(first)
        #expect(tally.outstanding == 3)

        // 3 beacons a session so far: the next takes room for 2 (the hold's bound), which 3 outstanding leaves no room for.
        let waiting = Task { await tally.admitSession(hold: 0).left }
        await Self.settle { tally.waiting.sessions == 1 }
        #expect(tally.waiting.sessions == 1)

        // The other hold's sessions start at once, with room for its own average (none yet: 1), and its answers let
        // no session of hold 0 go.
        let other = await tally.admitSession(hold: 1)
        #expect(other.left == 1, "hold 1 averages its own sessions, not hold 0's")
        let elsewhere = await Self.admitted(tally, Self.beacon(9), in: other)
        tally.endSession(other)
        #expect(tally.outstanding == 4, "3 of hold 0, and of hold 1 the beacon sent in its room")
        Self.answer(tally, elsewhere, hold: 1)
        #expect(tally.waiting.sessions == 1)

        // Hold 0's answers: 2 then 1 outstanding leave no room for 2; none outstanding lets the session go.
        Self.answer(tally, sent[0], hold: 0)
        Self.answer(tally, sent[1], hold: 0)
        #expect(tally.waiting.sessions == 1)
        Self.answer(tally, sent[2], hold: 0)
        #expect(await waiting.value == 2)
        #expect(tally.outstanding == 2, "the room taken for it")
    }

    /// Past its room, a beacon counts one more outstanding, and waits while twice the hold's bound are; an answer lets
    /// it go. The next session starts when room for its average fits.
    @Test func aBeaconPastItsRoom_waitsAtTwiceTheBound_andAnAnswerLetsItGo() async throws {
        let tally = FleetTally(keys: [], limit: 2) { _ in nil }
        let room = await tally.admitSession()
        var sent: [Sent] = []
        for n in 0..<4 { sent.append(await Self.admitted(tally, Self.beacon(n), in: room)) }  // 1 in the room, then 3 more: 4
        // (Sent with no room: a room is its session's, touched by its task alone, and this one's is used up.)
        let fifth = Task { await Self.admitted(tally, Self.beacon(4)) }
        await Self.settle { tally.waiting.beacons == 1 }
        #expect(tally.waiting.beacons == 1)
        Self.answer(tally, sent[0])
        _ = await fifth.value
        #expect(tally.outstanding == 4)
        tally.endSession(room)

        // 5 beacons in 1 session: the next takes room for 2 (the bound), which 4 outstanding leave none for.
        let next = Task { await tally.admitSession().left }
        await Self.settle { tally.waiting.sessions == 1 }
        for record in sent.dropFirst() { Self.answer(tally, record) }
        #expect(tally.waiting.sessions == 1, "1 outstanding leaves no room for 2")
        Self.answer(tally, await fifth.value)
        #expect(await next.value == 2)
    }

    /// Rows whose keys hash alike (the same event, template length and ad) are still told apart by their templates.
    @Test func beaconsAreCountedInTheirOwnRow_whenKeysDifferOnlyInTheirTemplatesBytes() async {
        let keys = [FleetTally.key(event: "impression", source: "inline", template: "http://t/1"),
                    FleetTally.key(event: "impression", source: "inline", template: "http://t/2"),
                    FleetTally.key(event: "impression", source: "inline", template: "http://t/1", ad: 2),
                    FleetTally.key(event: "impression", source: "wrapper 1", template: "http://t/1")]
        #expect(keys[0].hashValue == keys[1].hashValue, "the case this test is about")
        let tally = FleetTally(keys: keys, limit: 64) { _ in nil }
        var second = Self.beacon(2)
        second.event = "impression"
        _ = await tally.admit(second)
        _ = await tally.admit(second)
        var wrapped = Self.beacon(1)
        wrapped.source = "wrapper 1"
        _ = await tally.admit(wrapped)
        #expect(tally.snapshot.sent == [0, 2, 0, 1])
    }

    /// Each hold counts what its sessions and its dispatcher report; the snapshot merges the holds, and progress,
    /// waiting and outstanding add them up.
    @Test func eachHoldCountsItsOwn_andTheSnapshotMergesThem() async {
        let keys = (0..<3).map { FleetTally.key(event: "impression", source: "inline", template: "http://t/\($0)") }
        let reconciler = FleetReconciler()
        let tally = FleetTally(keys: keys, limit: 64, holds: 3, reconciler: reconciler) { url in url.hasSuffix("/2") ? nil : String(url.dropFirst("http://t".count)) }
        for hold in 0..<3 {
            let room = await tally.admitSession(hold: hold)
            for n in 0...hold {
                let sent = await Self.admitted(tally, Self.beacon(n), in: room)
                if n < 2 { Self.answer(tally, sent, hold: hold) }
            }
            tally.event(PlaybackEvent(name: .start, playhead: .zero, clock: .zero), hold: hold)
            tally.finished(FleetScenario(index: hold, kind: hold == 2 ? .skip : .complete), network: "3g", report: PlaybackReport(), hold: hold)
            tally.endSession(room)
        }
        let counts = tally.snapshot
        #expect(counts.sent == [3, 2, 1] && counts.delivered == [3, 2, 0])
        #expect(reconciler.unmatched == (requests: 5, hits: 0), "3 requests to /0 and 2 to /1 went to the sink, none seen yet")
        #expect(counts.latency.totalCount == 5)
        #expect(counts.events == [.start: 3] && counts.scenarios == ["complete": 2, "skip": 1] && counts.networks["3g"]?.sessions == 3)
        #expect(tally.progress == (sessionsDone: 3, beaconsSent: 6, beaconsAnswered: 5))
        #expect(tally.outstanding == 1, "hold 2's third beacon, unanswered")
        for target in ["/0", "/1", "/1", "/9"] { reconciler.hit(FleetReconcilerTests.hit(target)) }
        #expect(reconciler.received(rows: 3) == (perKey: [1, 2, 0], unexpected: 1))
    }

    /// A signal stops every hold's waits: a beacon waiting in one hold and a session waiting in another both go.
    @Test func stoppingLetsEveryHoldsWaitersGo() async {
        let tally = FleetTally(keys: [], limit: 2, holds: 2) { _ in nil }  // 1 a hold; beacons wait at 2 a hold
        let first = await tally.admitSession(hold: 0)
        for n in 0..<2 { _ = await Self.admitted(tally, Self.beacon(n), in: first) }  // 1 in its room, 1 past it: 2
        let beacon = Task { await Self.admitted(tally, Self.beacon(2)).row }  // hold 0 at its ceiling: waits
        let second = await tally.admitSession(hold: 1)  // hold 1: its room, 1, is its bound
        let session = Task { await tally.admitSession(hold: 1).left }  // no room for 1 more: waits
        await Self.settle { tally.waiting == (sessions: 1, beacons: 1) }
        #expect(tally.waiting == (sessions: 1, beacons: 1))
        tally.stop()
        #expect(await session.value == 0, "let go without room: it starts nothing")
        #expect(await beacon.value == nil, "let through to the dispatcher")
        #expect(tally.waiting == (sessions: 0, beacons: 0))
        tally.endSession(second)
        tally.endSession(first)
    }

    /// On a network mix, each beacon is counted on its session's network too, through the row, network and session
    /// packed with it (`Counted`), and `/metrics` shows them by network and outcome.
    @Test func eachBeacon_isCountedOnItsSessionsNetwork_andShownByNetworkInMetrics() async throws {
        let tally = FleetTally(keys: [], limit: 8, networkNames: ["wifi", "3g"]) { _ in nil }
        #expect(FleetTally.Counted(packed: FleetTally.Counted(row: 5, network: 1, session: 70_000).packed) == .init(row: 5, network: 1, session: 70_000))
        #expect(FleetTally.Counted(packed: FleetTally.Counted(row: nil, network: nil, session: nil).packed) == .init(row: nil, session: nil))
        let most = FleetTally.Counted(row: FleetTally.Counted.noRow - 1, network: FleetTally.Counted.maxNetworks - 1, session: FleetTally.Counted.maxSessions - 1)
        #expect(FleetTally.Counted(packed: most.packed) == most, "the widest values keep to their bits")
        // A mix with more networks than the packing holds is refused, not silently mixed up.
        let many = (1...FleetTally.Counted.maxNetworks + 1).map { "kbps=\($0)/rtt=1:1" }.joined(separator: ",")
        #expect(throws: NetworkMix.ParseError.self) { try NetworkMix(parsing: many) }
        #expect((try? NetworkMix(parsing: (1...FleetTally.Counted.maxNetworks).map { "kbps=\($0)/rtt=1:1" }.joined(separator: ","))) != nil)
        var sent: [Sent] = []
        for (n, network) in [0, 1, 1].enumerated() {
            let room = await tally.admitSession()
            (room.session, room.network) = (n, network)
            sent.append(await Self.admitted(tally, Self.beacon(n), in: room))
            sent.append(await Self.admitted(tally, Self.beacon(10 + n), in: room))
            tally.endSession(room)
        }
        for one in sent.dropLast() { Self.answer(tally, one) }
        var failed = Self.answered(sent.last!.beacon)
        failed.status = 500
        tally.record(failed, countedAt: sent.last!.row)
        let networks = tally.snapshot.networks
        #expect(networks["wifi"].map { [$0.beaconsSent, $0.beaconsDelivered, $0.beaconsFailed] } == [2, 2, 0])
        #expect(networks["3g"].map { [$0.beaconsSent, $0.beaconsDelivered, $0.beaconsFailed] } == [4, 3, 1])

        let families = FleetMetricsBoard(version: "test").families(of: [.init(tally: tally, rows: [], sessions: 3)], finished: true)
        let family = try #require(families.first { $0.name == "vplay_fleet_network_beacons_total" })
        let samples = family.samples.map { sample in (sample.labels.map(\.value).joined(separator: " "), sample.value) }
        #expect(samples.map(\.0) == ["3g sent", "3g delivered", "3g failed", "wifi sent", "wifi delivered", "wifi failed"])
        #expect(samples.map(\.1) == [4, 3, 1, 2, 2, 0].map { .number(Double($0)) })
    }
}
