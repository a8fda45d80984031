import Testing
@testable import AdSession

/// The fleet's admission as a value: inputs in, who may go out. Waiters are plain numbers; nothing waits.
@Suite struct FleetAdmissionTests {
    typealias Machine = FleetAdmission<Int, Int>

    /// The sessions let go to start, with their rooms, and the beacons let go, in order.
    static func split(_ actions: [Machine.Action]) -> (sessions: [[Int]], beacons: [Int]) {
        var sessions: [[Int]] = [], beacons: [Int] = []
        for action in actions {
            switch action {
            case let .startSession(session, room): sessions.append([session, room])
            case let .sendBeacon(beacon): beacons.append(beacon)
            }
        }
        return (sessions, beacons)
    }

    @Test func theBoundIsSharedAmongTheHoldsAndBeaconsWaitAtTwiceIt() {
        #expect(Machine.share(of: 5, among: 2) == 3, "5 over 2 holds rounds up to 3 each")
        #expect(Machine(limit: 3).ceiling == 6)
        #expect(Machine.share(of: 0, among: 0) == 1 && Machine(limit: 0).limit == 1, "at least one hold, and one beacon in it")
    }

    @Test func aSessionTakesTheAverageRoomAndWaitsWhenItDoesNotFit() {
        var machine = Machine(limit: 4)
        #expect(machine.startSession() == 1, "no average yet: room for one")
        for _ in 0..<3 { #expect(machine.sendBeacon(roomy: false) == true) }  // 3 past the room: 4 outstanding
        #expect(machine.room == 3)
        #expect(machine.startSession() == nil, "4 outstanding + 3 is over 4")
        #expect(machine.wait(session: 7) == nil)
        #expect(machine.waiting.sessions == 1)
        // Answers: 3, 2, then 1 outstanding; room for 3 fits only at 1.
        #expect(machine.answered().isEmpty)
        #expect(machine.answered().isEmpty)
        #expect(Self.split(machine.answered()).sessions == [[7, 3]])
        #expect(machine.outstanding == 4 && machine.sessionsStarted == 2)
    }

    @Test func aBeaconPastItsRoomWaitsAtTheCeilingAndGoesBeforeANewSession() {
        var machine = Machine(limit: 1)  // ceiling 2
        #expect(machine.startSession() == 1)
        #expect(machine.sendBeacon(roomy: true) == true)
        #expect(machine.sendBeacon(roomy: false) == true)
        #expect(machine.sendBeacon(roomy: false) == false, "2 outstanding: at the ceiling")
        #expect(machine.wait(beacon: 1) == nil)
        #expect(machine.wait(session: 9) == nil)
        // One answer: the beacon of the session under way goes first; the new session still does not fit.
        let first = Self.split(machine.answered())
        #expect(first.beacons == [1] && first.sessions.isEmpty)
        #expect(machine.sendBeacon(roomy: false) == true)
        #expect(machine.answered().isEmpty)
        #expect(Self.split(machine.answered()).sessions == [[9, 1]], "the session goes when nothing is outstanding")
        #expect(machine.outstanding == 1 && machine.waiting.sessions == 0)
    }

    @Test func aWaiterLooksAgainAtOnceWhenRoomWasFreedMeanwhile() {
        var machine = Machine(limit: 1)
        #expect(Self.split(machine.wait(session: 3).map { [$0] } ?? []).sessions == [[3, 1]])
        #expect(Self.split(machine.wait(beacon: 4).map { [$0] } ?? []).beacons == [4], "below the ceiling")
    }

    @Test func unusedRoomIsGivenBackWhenASessionEnds() {
        var machine = Machine(limit: 1)
        #expect(machine.startSession() == 1)
        #expect(machine.wait(session: 5) == nil)
        #expect(machine.sessionEnded(unused: 0).isEmpty)
        #expect(Self.split(machine.sessionEnded(unused: 1)).sessions == [[5, 1]], "the room given back lets the next go")
    }

    @Test func stoppingLetsEveryWaiterGoAndNothingWaitsAfter() {
        var machine = Machine(limit: 1)
        _ = machine.startSession()
        for _ in 0..<2 { _ = machine.sendBeacon(roomy: false) }
        #expect(machine.wait(session: 1) == nil)
        #expect(machine.wait(beacon: 2) == nil)
        let stopped = Self.split(machine.stop())
        #expect(stopped.sessions == [[1, 0]] && stopped.beacons == [2], "sessions start nothing (room 0)")
        #expect(machine.startSession() == 0)
        #expect(machine.sendBeacon(roomy: false) == true)
        #expect(machine.waiting.sessions == 0 && machine.waiting.beacons == 0)
    }
}
