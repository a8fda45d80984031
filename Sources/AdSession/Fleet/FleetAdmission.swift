/// What holds a fleet back, so queued beacons cannot pile up in memory: a pure state machine that takes what the
/// sessions and the answers do and returns who may go, for one hold. `FleetTally` keeps one per hold, with that hold's
/// share of the bound, behind the hold's lock, with continuations as the waiters; its tests keep one with numbers.
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
    /// Who may go now.
    enum Action {
        /// A waiting session starts, `room` taken for it (0 when the fleet stopped: it starts nothing).
        case startSession(SessionWaiter, room: Int)
        /// A waiting beacon looks again.
        case sendBeacon(BeaconWaiter)
    }

    /// The hold's beacons outstanding (sent or queued, not yet answered, and the room its sessions took and have not
    /// used), and who waits on them, first come first served.
    private(set) var outstanding = 0
    private var sessionsWaiting: [SessionWaiter] = []
    private var beaconsWaiting: [BeaconWaiter] = []
    /// The bound on the hold's sessions' room; twice it bounds its beacons.
    let limit: Int
    var ceiling: Int { 2 * limit }
    /// Sessions started and beacons admitted, for the room a session takes (the beacons a session sends on average).
    private(set) var sessionsStarted = 0
    private(set) var beaconsAdmitted = 0
    /// The fleet was stopped (a signal): nothing waits any more.
    private(set) var stopped = false

    /// A hold of `limit` beacons outstanding (at least 1): a fleet's bound shared among its holds, `share(of:among:)`.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Each hold's bound when `limit` is shared among `holds`: `limit / holds` rounded up, at least 1.
    static func share(of limit: Int, among holds: Int) -> Int {
        let holds = max(1, holds)
        return (max(1, limit) + holds - 1) / holds
    }

    /// The room a session takes when it starts: the beacons a session of the hold has sent on average so far (at
    /// least 1, at most `limit`).
    var room: Int { min(limit, max(1, sessionsStarted == 0 ? 1 : beaconsAdmitted / sessionsStarted)) }

    /// Sessions and beacons waiting.
    var waiting: (sessions: Int, beacons: Int) { (sessionsWaiting.count, beaconsWaiting.count) }

    /// A session asks to start: its room, counted, when it fits (0 once stopped); nil: it must wait.
    mutating func startSession() -> Int? {
        if stopped { return 0 }
        let room = room
        guard outstanding == 0 || outstanding + room <= limit else { return nil }
        outstanding += room
        sessionsStarted += 1
        return room
    }

    /// A session that was refused waits: it starts at once when room was freed meanwhile, else it queues.
    mutating func wait(session waiter: SessionWaiter) -> Action? {
        if let room = startSession() { return .startSession(waiter, room: room) }
        sessionsWaiting.append(waiter)
        return nil
    }

    /// A beacon asks to be sent: within its session's room (`roomy`) it always goes; past it, it counts one more
    /// outstanding and goes while the hold is under its ceiling (or stopped). False: it must wait.
    mutating func sendBeacon(roomy: Bool) -> Bool {
        guard roomy || stopped || outstanding < ceiling else { return false }
        if !roomy { outstanding += 1 }
        beaconsAdmitted += 1
        return true
    }

    /// A beacon that was refused waits: it looks again at once when room was freed meanwhile, else it queues.
    mutating func wait(beacon waiter: BeaconWaiter) -> Action? {
        guard !stopped, outstanding >= ceiling else { return .sendBeacon(waiter) }
        beaconsWaiting.append(waiter)
        return nil
    }

    /// A session ended with `unused` room its beacons did not take: given back.
    mutating func sessionEnded(unused: Int) -> [Action] {
        guard unused > 0 else { return [] }
        outstanding -= unused
        return letGo()
    }

    /// A beacon was answered (its final attempt).
    mutating func answered() -> [Action] {
        outstanding -= 1
        return letGo()
    }

    /// The fleet stops (a signal): sessions waiting start nothing (room 0), beacons waiting go to the dispatcher,
    /// whose drain the signal has cut short.
    mutating func stop() -> [Action] {
        stopped = true
        let actions = sessionsWaiting.map { Action.startSession($0, room: 0) } + beaconsWaiting.map { .sendBeacon($0) }
        sessionsWaiting.removeAll()
        beaconsWaiting.removeAll()
        return actions
    }

    /// After beacons stopped being outstanding: a beacon of a session under way first (below the ceiling), then as
    /// many sessions as have room under the bound, each its room taken.
    private mutating func letGo() -> [Action] {
        var actions: [Action] = []
        if outstanding < ceiling, !beaconsWaiting.isEmpty {
            actions.append(.sendBeacon(beaconsWaiting.removeFirst()))
        }
        while !sessionsWaiting.isEmpty, let room = startSession() {
            actions.append(.startSession(sessionsWaiting.removeFirst(), room: room))
        }
        return actions
    }
}

extension FleetAdmission: Sendable where SessionWaiter: Sendable, BeaconWaiter: Sendable {}
extension FleetAdmission.Action: Sendable where SessionWaiter: Sendable, BeaconWaiter: Sendable {}
