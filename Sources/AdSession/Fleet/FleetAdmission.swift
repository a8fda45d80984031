/// What holds a fleet back, so queued beacons cannot pile up in memory: a pure state machine that takes what the
/// sessions and the answers do and returns who may go. `FleetTally` keeps one per hold, each with that hold alone and
/// its share of the bound, behind the hold's lock, with continuations as the waiters; its tests keep one with numbers.
///
/// The sessions send through a few dispatchers (one per event loop), each with its share `limit` of the beacons in
/// flight: a hold. A session takes room in its hold for the beacons a session sends on average, and starts only when
/// that room fits (or nothing is outstanding there); its beacons use the room, and a beacon past it counts one more,
/// waiting while twice the share is outstanding (on the virtual clock nothing moves while it waits). A session's
/// beacons come in a burst on the virtual clock: held back at its start, a session waits once, not once per beacon.
/// An answer frees room in its own dispatcher's hold and lets that hold's waiters go, so each loop keeps its own
/// connections busy (one shared bound let one loop's sessions take every turn, and the other loop's went idle).
///
/// Which queue bounds what, in one place: this machine bounds the beacons planned and not yet answered (per hold:
/// `limit` of room for sessions, `2 × limit` for beacons); each dispatcher bounds the requests in flight
/// (`--beacon-concurrency`, shared among the dispatchers) and queues the rest in order; the pooled transport bounds the
/// connections per host (`HostPool`). So at most `2 × limit` beacons of a hold wait anywhere.
struct FleetAdmission<SessionWaiter, BeaconWaiter> {
    /// One dispatcher's share of the bound: its beacons outstanding (sent or queued, not yet answered, and the room
    /// its sessions took and have not used), and who waits on it, first come first served.
    struct Hold {
        var outstanding = 0
        var sessionsWaiting: [SessionWaiter] = []
        var beaconsWaiting: [BeaconWaiter] = []
    }

    /// Who may go now.
    enum Action {
        /// A waiting session starts, `room` taken for it (0 when the fleet stopped: it starts nothing).
        case startSession(SessionWaiter, room: Int)
        /// A waiting beacon looks again.
        case sendBeacon(BeaconWaiter)
    }

    private(set) var holds: [Hold]
    /// Each hold's bound on its sessions' room; twice it bounds its beacons.
    let limit: Int
    var ceiling: Int { 2 * limit }
    /// Sessions started and beacons admitted, for the room a session takes (the beacons a session sends on average).
    private(set) var sessionsStarted = 0
    private(set) var beaconsAdmitted = 0
    /// The fleet was stopped (a signal): nothing waits any more.
    private(set) var stopped = false

    /// `limit` beacons outstanding over the fleet, shared among `holds`.
    init(limit: Int, holds: Int) {
        self.limit = Self.share(of: limit, among: holds)
        self.holds = Array(repeating: Hold(), count: max(1, holds))
    }

    /// Each hold's bound when `limit` is shared among `holds`: `limit / holds` rounded up, at least 1.
    static func share(of limit: Int, among holds: Int) -> Int {
        let holds = max(1, holds)
        return (max(1, limit) + holds - 1) / holds
    }

    /// The room a session takes when it starts: the beacons a session has sent on average so far (at least 1, at
    /// most `limit`).
    var room: Int { min(limit, max(1, sessionsStarted == 0 ? 1 : beaconsAdmitted / sessionsStarted)) }

    /// Beacons outstanding over every hold.
    var outstanding: Int { holds.reduce(0) { $0 + $1.outstanding } }

    /// Sessions and beacons waiting, over every hold.
    var waiting: (sessions: Int, beacons: Int) { holds.reduce((0, 0)) { ($0.0 + $1.sessionsWaiting.count, $0.1 + $1.beaconsWaiting.count) } }

    /// A session of `hold` asks to start: its room, counted, when it fits (0 once stopped); nil: it must wait.
    mutating func startSession(hold: Int) -> Int? {
        if stopped { return 0 }
        let room = room
        guard holds[hold].outstanding == 0 || holds[hold].outstanding + room <= limit else { return nil }
        holds[hold].outstanding += room
        sessionsStarted += 1
        return room
    }

    /// A session that was refused waits: it starts at once when room was freed meanwhile, else it queues.
    mutating func wait(session waiter: SessionWaiter, hold: Int) -> Action? {
        if let room = startSession(hold: hold) { return .startSession(waiter, room: room) }
        holds[hold].sessionsWaiting.append(waiter)
        return nil
    }

    /// A beacon of `hold` asks to be sent: within its session's room (`roomy`) it always goes; past it, it counts one
    /// more outstanding and goes while the hold is under its ceiling (or stopped). False: it must wait.
    mutating func sendBeacon(hold: Int, roomy: Bool) -> Bool {
        guard roomy || stopped || holds[hold].outstanding < ceiling else { return false }
        if !roomy { holds[hold].outstanding += 1 }
        beaconsAdmitted += 1
        return true
    }

    /// A beacon that was refused waits: it looks again at once when room was freed meanwhile, else it queues.
    mutating func wait(beacon waiter: BeaconWaiter, hold: Int) -> Action? {
        guard !stopped, holds[hold].outstanding >= ceiling else { return .sendBeacon(waiter) }
        holds[hold].beaconsWaiting.append(waiter)
        return nil
    }

    /// A session ended with `unused` room its beacons did not take: given back.
    mutating func sessionEnded(hold: Int, unused: Int) -> [Action] {
        guard unused > 0 else { return [] }
        holds[hold].outstanding -= unused
        return letGo(hold: hold)
    }

    /// A beacon of `hold` was answered (its final attempt).
    mutating func answered(hold: Int) -> [Action] {
        holds[hold].outstanding -= 1
        return letGo(hold: hold)
    }

    /// The fleet stops (a signal): sessions waiting start nothing (room 0), beacons waiting go to the dispatcher,
    /// whose drain the signal has cut short.
    mutating func stop() -> [Action] {
        stopped = true
        var actions: [Action] = []
        for hold in holds.indices {
            actions += holds[hold].sessionsWaiting.map { .startSession($0, room: 0) }
            actions += holds[hold].beaconsWaiting.map { .sendBeacon($0) }
            holds[hold].sessionsWaiting.removeAll()
            holds[hold].beaconsWaiting.removeAll()
        }
        return actions
    }

    /// After beacons of `hold` stopped being outstanding: a beacon of a session under way first (below the ceiling),
    /// then as many sessions as have room under the bound, each its room taken.
    private mutating func letGo(hold: Int) -> [Action] {
        var actions: [Action] = []
        if holds[hold].outstanding < ceiling, !holds[hold].beaconsWaiting.isEmpty {
            actions.append(.sendBeacon(holds[hold].beaconsWaiting.removeFirst()))
        }
        while !holds[hold].sessionsWaiting.isEmpty, let room = startSession(hold: hold) {
            actions.append(.startSession(holds[hold].sessionsWaiting.removeFirst(), room: room))
        }
        return actions
    }
}

extension FleetAdmission: Sendable where SessionWaiter: Sendable, BeaconWaiter: Sendable {}
extension FleetAdmission.Hold: Sendable where SessionWaiter: Sendable, BeaconWaiter: Sendable {}
extension FleetAdmission.Action: Sendable where SessionWaiter: Sendable, BeaconWaiter: Sendable {}
