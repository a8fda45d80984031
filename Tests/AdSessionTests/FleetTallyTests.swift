import Testing
import TrackingBeacons
@testable import AdSession

/// The fleet's hold on its sessions: a session starts below `limit` beacons outstanding, a beacon waits at twice as
/// many, and each final answer lets one waiter go (a session's beacon before a new session).
struct FleetTallyTests {
    static func beacon(_ n: Int) -> PlannedBeacon {
        PlannedBeacon(event: "impression", source: "inline", template: "http://t/\(n)", url: "http://t/\(n)", playhead: .zero, clock: .zero)
    }

    /// The final answer of `beacon`, delivered.
    static func answered(_ beacon: PlannedBeacon) -> BeaconRecord {
        var record = BeaconRecord(planned: beacon, dryRun: false)
        record.sentAt = 1
        record.status = 204
        return record
    }

    /// Yields until `condition` holds (the waiting tasks run on the cooperative pool; nothing sleeps).
    static func settle(_ condition: () -> Bool) async {
        for _ in 0..<100_000 where !condition() { await Task.yield() }
    }

    @Test func aSessionStartsBelowTheLimit_aBeaconWaitsAtTwiceIt_andAnswersLetThemGoInThatOrder() async throws {
        let tally = FleetTally(keys: [], limit: 2) { _ in nil }
        await tally.admitSession()  // nothing outstanding: at once
        var admitted: [PlannedBeacon] = []
        for n in 0..<4 { admitted.append(await tally.admit(Self.beacon(n))) }  // up to the ceiling (4) without waiting
        #expect(tally.snapshot.outstanding == 4)

        let session = Task { await tally.admitSession() }
        let fifth = Task { await tally.admit(Self.beacon(4)) }
        await Self.settle { tally.waiting == (sessions: 1, beacons: 1) }
        #expect(tally.waiting == (sessions: 1, beacons: 1))

        // One answer: below the ceiling, the waiting beacon goes (the session still waits: 4 outstanding again).
        tally.record(Self.answered(admitted[0]))
        _ = await fifth.value
        #expect(tally.waiting == (sessions: 1, beacons: 0))
        #expect(tally.snapshot.outstanding == 4)

        // Answers down to 2 outstanding keep the session waiting; the one that leaves 1 lets it start.
        tally.record(Self.answered(admitted[1]))
        tally.record(Self.answered(admitted[2]))
        #expect(tally.waiting == (sessions: 1, beacons: 0))
        tally.record(Self.answered(admitted[3]))
        await session.value
        #expect(tally.waiting == (sessions: 0, beacons: 0))
        #expect(tally.snapshot.outstanding == 1)
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
}
