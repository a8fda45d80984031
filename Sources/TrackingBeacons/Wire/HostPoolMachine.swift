

/// One host's connections and their free request slots, as a state machine: requests for a slot, connections
/// opened, failed and released come in; what each waiter is handed goes out. `HostPool` keeps one behind its lock
/// (the waiters are continuations); its tests keep one with numbers and stand-in connections.
///
/// A connection carries up to `depth` requests at once (pipelined when more than one); each free slot is an entry
/// in `slots`, kept by the connection's event loop. A request made on a loop takes a slot on that loop first, then a
/// new connection while under the limit (and the loop under its share of it), then a slot on another loop, else
/// waits for the next one freed.
struct HostPoolMachine<Connection: PooledConnection, Waiter> {
    typealias Lease = PoolLease<Connection>

    /// Free slots by event loop; a connection is listed once per free slot.
    private var slots = SlotLists<Connection>()
    /// Open connections not yet retired (each marked so in its `membership`, with the loop it was opened for).
    private(set) var live = 0
    /// Connections being opened.
    private(set) var opening = 0
    /// Connections opened or being opened for requests made on each event loop, against `perLoopLimit`.
    private var perLoop: [ObjectIdentifier: Int] = [:]
    private var waiters: [(loop: ObjectIdentifier?, waiter: Waiter)] = []
    /// Connections open at once at most.
    let limit: Int
    /// Connections opened for the requests of one event loop at most: its share of `limit`, so that each loop (with
    /// its share of the requests in flight, a fleet's) has connections of its own to start them on.
    let perLoopLimit: Int
    /// Requests one connection carries at once (1: no pipelining).
    let depth: Int

    /// - Parameters:
    ///   - loops: event loops the requests come from (each may open `limit / loops` of them, rounded up).
    init(limit: Int, loops: Int = 1, depth: Int = 1) {
        self.limit = limit
        perLoopLimit = (limit + max(1, loops) - 1) / max(1, loops)
        self.depth = max(1, depth)
    }

    var open: Int { opening + live }
    /// Requests waiting for a slot.
    var waiting: Int { waiters.count }

    /// A slot for a request made on `loop` as ranked above (off any loop, nil: a free slot anywhere, else a new
    /// connection); nil when the caller must wait.
    mutating func lease(loop: ObjectIdentifier?) -> Lease? {
        if let loop, let connection = popSlot(loop: loop) { return .slot(connection) }
        // Off any loop, every loop's slots are as near.
        if loop == nil {
            for other in slots.loops {
                if let connection = popSlot(loop: other) { return .slot(connection) }
            }
        }
        if open < limit, loop.map({ perLoop[$0, default: 0] < perLoopLimit }) ?? true {
            startOpening(for: loop)
            return .open
        }
        for other in slots.loops where other != loop {
            if let connection = popSlot(loop: other) { return .slot(connection) }
        }
        return nil
    }

    /// A request that found no slot waits: it is leased one at once when one was freed meanwhile, else it queues.
    mutating func wait(_ waiter: Waiter, loop: ObjectIdentifier?) -> Lease? {
        if let lease = lease(loop: loop) { return lease }
        waiters.append((loop, waiter))
        return nil
    }

    /// A free slot on a connection of `loop`, if there is one now (nothing else: no opening, no waiting).
    mutating func slot(on loop: ObjectIdentifier) -> Connection? { popSlot(loop: loop) }

    /// A connection from an `.open` lease made on `loop` is open, its first request sent: its other slots go to
    /// waiters, then to the pool.
    mutating func opened(_ connection: Connection, for loop: ObjectIdentifier?) -> [(Waiter, Lease)] {
        opening -= 1
        (connection.membership.live, connection.membership.loop) = (true, loop)
        live += 1
        let spare = depth - 1
        let handed = waiters.prefix(spare).map { ($0.waiter, Lease.slot(connection)) }
        waiters.removeFirst(handed.count)
        for _ in handed.count..<spare { slots.push(connection, on: connection.eventLoopID) }
        return handed
    }

    /// An `.open` lease made on `loop` that did not get its connection: the count goes back, and a waiter may open
    /// one in its place.
    mutating func failedToOpen(for loop: ObjectIdentifier?) -> (Waiter, Lease)? {
        opening -= 1
        if let loop { perLoop[loop, default: 1] -= 1 }
        return nextOpens()
    }

    /// A request's slot on `connection` is free again. `reusable` false: the connection is done (closed, failed, or
    /// its answer left it unusable) and retired, once, whatever number of its requests end after; a waiter may open
    /// one in its place.
    mutating func release(_ connection: Connection, reusable: Bool) -> (Waiter, Lease)? {
        if reusable, connection.membership.live {
            guard !waiters.isEmpty else {
                slots.push(connection, on: connection.eventLoopID)
                return nil
            }
            return (waiters.removeFirst().waiter, .slot(connection))
        }
        guard connection.membership.live else { return nil }
        retire(connection)
        return nextOpens()
    }

    /// Every connection with a free slot, each once, the slots forgotten (to close them).
    mutating func closeAll() -> [Connection] {
        defer { slots.removeAll() }
        var seen: Set<ObjectIdentifier> = []
        return slots.lists.joined().filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The first waiter, given leave to open a connection.
    private mutating func nextOpens() -> (Waiter, Lease)? {
        guard !waiters.isEmpty else { return nil }
        let next = waiters.removeFirst()
        startOpening(for: next.loop)
        return (next.waiter, .open)
    }

    /// Counts a connection being opened for a request made on `loop`.
    private mutating func startOpening(for loop: ObjectIdentifier?) {
        opening += 1
        if let loop { perLoop[loop, default: 0] += 1 }
    }

    /// A free slot on `loop` of a connection still open; slots of connections closed meanwhile are dropped (and the
    /// connection retired).
    private mutating func popSlot(loop: ObjectIdentifier) -> Connection? {
        while let connection = slots.pop(on: loop) {
            if connection.membership.live {
                if connection.isActive { return connection }
                retire(connection)
            }
        }
        return nil
    }

    /// Takes a connection out of the pool's count, once.
    private mutating func retire(_ connection: Connection) {
        guard connection.membership.live else { return }
        connection.membership.live = false
        live -= 1
        if let loop = connection.membership.loop { perLoop[loop, default: 1] -= 1 }
    }
}

extension HostPoolMachine: Sendable where Waiter: Sendable {}
