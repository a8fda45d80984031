import Testing
@testable import TrackingBeacons

/// The host pool as a value: leases, opens and releases in, what each waiter is handed out. No sockets: the
/// connections are stand-ins that say which loop they run on and whether they are still open.
@Suite struct HostPoolMachineTests {
    final class Loop: Sendable {}
    final class StandIn: PooledConnection, @unchecked Sendable {
        let name: String
        let eventLoopID: ObjectIdentifier
        var isActive = true
        let membership = PoolMembership()
        init(_ name: String, on loop: Loop) { (self.name, eventLoopID) = (name, ObjectIdentifier(loop)) }
    }
    typealias Machine = HostPoolMachine<StandIn, Int>

    static func describe(_ lease: PoolLease<StandIn>?) -> String {
        switch lease {
        case nil: "wait"
        case .open?: "open"
        case let .slot(connection)?: connection.name
        }
    }

    static func describe(_ handed: (Int, PoolLease<StandIn>)?) -> String {
        handed.map { "\($0.0): \(describe($0.1))" } ?? "none"
    }

    let a = Loop()
    let b = Loop()
    var ids: (ObjectIdentifier, ObjectIdentifier) { (ObjectIdentifier(a), ObjectIdentifier(b)) }

    @Test func eachLoopOpensAtMostItsShare_andAPlaceGivenUpGoesToAWaiter() {
        var pool = Machine(limit: 4, loops: 2)
        let (a, b) = ids
        #expect([pool.lease(loop: a), pool.lease(loop: a), pool.lease(loop: b)].map(Self.describe) == ["open", "open", "open"])
        #expect(Self.describe(pool.lease(loop: a)) == "wait", "loop a opened its two, though the pool's four are not reached")
        #expect(pool.wait(7, loop: a) == nil && pool.waiting == 1)
        #expect(Self.describe(pool.lease(loop: b)) == "open")
        #expect(Self.describe(pool.failedToOpen(for: b)) == "7: open", "the place given up goes to the waiter")
        #expect(pool.opening == 4 && pool.waiting == 0)
    }

    @Test func aReleasedSlotIsTakenOnItsOwnLoopFirst_thenAnotherLoopsBeforeWaiting() {
        var pool = Machine(limit: 2, loops: 2)
        let (a, b) = ids
        let (onA, onB) = (StandIn("a1", on: self.a), StandIn("b1", on: self.b))
        _ = pool.lease(loop: a)
        _ = pool.lease(loop: b)
        #expect(pool.opened(onA, for: a).isEmpty && pool.opened(onB, for: b).isEmpty)
        #expect(pool.release(onA, reusable: true) == nil && pool.release(onB, reusable: true) == nil)
        #expect(Self.describe(pool.lease(loop: a)) == "a1")
        #expect(Self.describe(pool.lease(loop: a)) == "b1", "at the limit, another loop's slot before waiting")
        #expect(Self.describe(pool.lease(loop: a)) == "wait")
        #expect(pool.live == 2)
    }

    @Test func aPipelinedConnectionsSpareSlotsGoToWaitersThenToThePool() {
        var pool = Machine(limit: 1, depth: 3)
        let (a, _) = ids
        let connection = StandIn("c", on: self.a)
        #expect(Self.describe(pool.lease(loop: a)) == "open")
        for waiter in 1...3 { #expect(pool.wait(waiter, loop: a) == nil) }
        #expect(pool.opened(connection, for: a).map(Self.describe) == ["1: c", "2: c"], "two spare slots, two waiters")
        #expect(Self.describe(pool.release(connection, reusable: true)) == "3: c")
        #expect(pool.release(connection, reusable: true) == nil)
        #expect(pool.slot(on: a)?.name == "c" && pool.slot(on: a) == nil)
    }

    @Test func aClosedConnectionIsRetiredOnce_andItsPlaceOpensAnother() {
        var pool = Machine(limit: 1)
        let (a, _) = ids
        let connection = StandIn("c", on: self.a)
        _ = pool.lease(loop: a)
        _ = pool.opened(connection, for: a)
        _ = pool.release(connection, reusable: true)
        connection.isActive = false
        #expect(Self.describe(pool.lease(loop: a)) == "open", "its slot is dropped, the connection retired, a new one opens")
        #expect(pool.live == 0 && pool.opening == 1)
        #expect(pool.wait(5, loop: a) == nil)
        #expect(pool.release(connection, reusable: false) == nil, "retired already: no second place")
        #expect(pool.live == 0 && pool.waiting == 1)
    }

    @Test func aFailedConnectionsPlaceGoesToTheFirstWaiter() {
        var pool = Machine(limit: 1)
        let (a, _) = ids
        let connection = StandIn("c", on: self.a)
        _ = pool.lease(loop: a)
        _ = pool.opened(connection, for: a)
        #expect(pool.wait(1, loop: a) == nil && pool.wait(2, loop: nil) == nil)
        #expect(Self.describe(pool.release(connection, reusable: false)) == "1: open")
        #expect(pool.live == 0 && pool.opening == 1 && pool.waiting == 1)
    }

    @Test func offAnyLoopEveryLoopsSlotIsAsNear_andCloseAllListsEachConnectionOnce() {
        var pool = Machine(limit: 4, depth: 2)
        let (_, b) = ids
        let connection = StandIn("b1", on: self.b)
        _ = pool.lease(loop: b)
        _ = pool.opened(connection, for: b)
        #expect(Self.describe(pool.lease(loop: nil)) == "b1", "its spare slot, though opened for loop b")
        _ = pool.release(connection, reusable: true)
        _ = pool.release(connection, reusable: true)
        #expect(pool.closeAll().map(\.name) == ["b1"])
        #expect(pool.slot(on: b) == nil)
    }
}
