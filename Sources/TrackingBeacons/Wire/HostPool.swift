import NIOCore
import Primitives

/// One host's connections and their free request slots: a `HostPoolMachine` behind a lock, whose waiters are the
/// requests' continuations (resumed after the lock).
final class HostPool: Sendable {
    typealias Lease = PoolLease<BeaconConnection>
    typealias Machine = HostPoolMachine<BeaconConnection, CheckedContinuation<Lease, Never>>

    let key: PooledBeaconTransport.HostKey
    let depth: Int
    /// What follows each request's target on this host's connections (`PooledBeaconTransport.requestTail(for:)`).
    let requestTail: [UInt8]
    private let state: Locked<Machine>

    /// - Parameters:
    ///   - limit: connections open at once at most.
    ///   - loops: event loops the requests come from (each may open `limit / loops` of them, rounded up).
    ///   - depth: requests one connection carries at once (1: no pipelining).
    init(key: PooledBeaconTransport.HostKey, limit: Int, loops: Int = 1, depth: Int = 1, requestTail: [UInt8] = []) {
        self.key = key
        self.requestTail = requestTail
        self.depth = max(1, depth)
        state = Locked(Machine(limit: limit, loops: loops, depth: depth))
    }

    /// A slot for a request made on `loop` (`HostPoolMachine.lease`), or the next one freed.
    func acquire(on loop: (any EventLoop)?) async -> Lease {
        let key = loop.map(ObjectIdentifier.init)
        if let lease = state.withLock({ $0.lease(loop: key) }) { return lease }
        return await withCheckedContinuation { continuation in
            // Freed between the check and here: take it at once; else wait for a release.
            if let handed = state.withLock({ $0.wait(continuation, loop: key) }) { continuation.resume(returning: handed) }
        }
    }

    /// Requests waiting for a slot now.
    var waiting: Int { state.withLock { $0.waiting } }

    /// A free slot on a connection of `loop`, if there is one now (nothing else: no opening, no waiting).
    func slot(on loop: any EventLoop) -> BeaconConnection? {
        state.withLock { $0.slot(on: ObjectIdentifier(loop)) }
    }

    /// A connection from an `.open` lease made on `loop` is open, its first request sent.
    func opened(_ connection: BeaconConnection, for loop: ObjectIdentifier?) {
        for (waiter, lease) in state.withLock({ $0.opened(connection, for: loop) }) { waiter.resume(returning: lease) }
    }

    /// An `.open` lease made on `loop` that did not get its connection.
    func failedToOpen(for loop: ObjectIdentifier?) {
        if let (waiter, lease) = state.withLock({ $0.failedToOpen(for: loop) }) { waiter.resume(returning: lease) }
    }

    /// A request's slot on `connection` is free again; `reusable` false closes the connection.
    func release(_ connection: BeaconConnection, reusable: Bool) {
        if let (waiter, lease) = state.withLock({ $0.release(connection, reusable: reusable) }) { waiter.resume(returning: lease) }
        if !reusable { connection.close() }
    }

    func closeAll() {
        for connection in state.withLock({ $0.closeAll() }) { connection.close() }
    }
}

