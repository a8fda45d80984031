import Foundation
import NIOPosix
import Networking
import Primitives
import TestSupport
import Testing
@_spi(LiveParts) @testable import TrackingBeacons

/// `fleet --pipeline N`: requests pipelined on keep-alive connections, answered in order; a `Connection: close`
/// answer makes the requests behind it unprocessed, sent again (the server counts each once); a request that times
/// out fails the ones behind it without sending them again; and attempts started on an event loop without a task.
@Suite(.hangLimit) struct PipelinedTransportTests {
    static func transport(depth: Int, connections: Int) -> PooledBeaconTransport {
        PooledBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock(), maxConnectionsPerHost: connections, pipelineDepth: depth,
                              fallback: HTTPBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock()))
    }

    /// Sends `count` beacons to `path?n=i` at once; the outcomes by `i`. The 300 s timeout is a hang guard, not a
    /// verdict: a request's time counts from when it is queued, and a starved test process on a busy machine once
    /// took over 60 s to get 60 of them through their reconnections.
    static func sendAll(_ transport: PooledBeaconTransport, _ base: String, _ path: String, count: Int,
                        timeout: Duration = .seconds(300)) async -> [Int: TransportOutcome] {
        await withTaskGroup(of: (Int, TransportOutcome).self) { group in
            for index in 0..<count { group.addTask { (index, await transport.send("\(base)\(path)?n=\(index)", timeout: timeout)) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    @Test func pipelinedRequests_shareTheBoundOfConnections_andEachIsAnsweredOnce() async throws {
        let server = try ScriptedHTTPServer { target in
            .respond(status: 200, headers: [.init("Content-Type", "text/plain")], body: Data(target.utf8))
        }
        defer { server.stop() }
        // 16 in flight at most, 4 a connection: 4 connections.
        let transport = Self.transport(depth: 4, connections: 16)
        let outcomes = await Self.sendAll(transport, server.baseURL, "/ok", count: 200)
        await transport.shutdown()
        for index in 0..<200 {
            let outcome = outcomes[index]
            // Each answer is its own request's (the body echoes the target): responses are matched in order.
            #expect(outcome?.status == 200 && outcome?.error == nil && outcome?.bytes == "/ok?n=\(index)".utf8.count, "\(index): \(String(describing: outcome))")
        }
        #expect(server.requests().count == 200 && Set(server.requests().map(\.target)).count == 200, "each sent once")
        #expect(server.connections <= 4, "\(server.connections) connections for 16 in flight, 4 a connection")
    }

    @Test func connectionCloseAnswer_theRequestsPipelinedBehindIt_areSentAgain_andCountedOnce() async throws {
        // Every third request answered closes its connection: what was pipelined behind it was never read.
        let server = try ScriptedHTTPServer { target in
            let n = Int(target.split(separator: "=").last ?? "") ?? 0
            return .respond(status: 204, headers: n % 3 == 0 ? [.init("Connection", "close")] : [], body: Data())
        }
        defer { server.stop() }
        let transport = Self.transport(depth: 8, connections: 8)
        let outcomes = await Self.sendAll(transport, server.baseURL, "/close", count: 60)
        await transport.shutdown()
        #expect(outcomes.count == 60 && outcomes.values.allSatisfy { $0.status == 204 && $0.error == nil },
                "\(outcomes.values.filter { $0.status != 204 }.prefix(3))")
        let targets = server.requests().map(\.target)
        #expect(targets.count == 60 && Set(targets).count == 60,
                "the server processed each request once: \(targets.count) requests, \(Dictionary(grouping: targets, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted().prefix(5))")
        #expect(server.connections > 1, "the closes made the transport open new connections")
    }

    @Test func aStalledAnswer_timesOutAtItsDeadline_andTheRequestsBehindItFail_unsentAgain() async throws {
        let server = try ScriptedHTTPServer { target in
            target.hasPrefix("/stall") ? .stall(for: .seconds(120)) : .status(204)
        }
        defer { server.stop() }
        let transport = Self.transport(depth: 4, connections: 4)
        let executor = EventLoopTaskExecutor.shared[0]
        let outcomes: [String: TransportOutcome] = await withTaskExecutorPreference(executor) {
            // A first exchange opens the connection on this loop; its four slots are then free.
            _ = await transport.send(server.baseURL + "/warm", timeout: .seconds(300))
            // Started in one go on the loop: the stalled request at the connection's head, three pipelined behind it.
            return await withCheckedContinuation { continuation in
                let collected = Locked([String: TransportOutcome]())
                let names = ["stall", "behind0", "behind1", "behind2"]
                for name in names {
                    let url = server.baseURL + (name == "stall" ? "/stall" : "/ok?n=\(name.last!)")
                    let started = transport.startNow(url, timeout: name == "stall" ? .seconds(3) : .seconds(300)) { outcome in
                        let all = collected.withLock { collected -> [String: TransportOutcome]? in
                            collected[name] = outcome
                            return collected.count == names.count ? collected : nil
                        }
                        if let all { continuation.resume(returning: all) }
                    }
                    #expect(started, "\(name) started at once")
                }
            }
        }
        await transport.shutdown()
        let stalled = try #require(outcomes["stall"])
        #expect(stalled.error == .timedOut && stalled.status == nil)
        #expect(stalled.latency >= .seconds(3) && stalled.latency < .seconds(150), "at its 3 s deadline: \(stalled.latency)")
        for index in 0..<3 {
            let behind = try #require(outcomes["behind\(index)"])
            if case .other = behind.error {} else { Issue.record("behind \(index): \(behind)") }
            #expect(!behind.failedBeforeSending, "it may have reached the server: not retried")
        }
        // The server read all four and answered the first only: the ones behind it were not sent again.
        #expect(server.requestsRead == 5)
        #expect(server.requests().map(\.target) == ["/warm", "/stall"])
        #expect(server.connections == 1)
    }

    /// The connection's one timer, after a first request answered at once, for a stalled second one: set for an
    /// earlier deadline of its own (600 s, then 2 s: re-set sooner; the server closes at 120 s), or for a later one (2 s, then 4 s: it fires at
    /// 2 s, finds nothing due, and waits on). Either way the stalled request ends at its own deadline.
    @Test(arguments: [(first: 600, stalled: 2), (first: 2, stalled: 4)])
    func aStalledRequest_timesOutAtItsOwnDeadline_whateverTheTimerWasSetFor(_ seconds: (first: Int, stalled: Int)) async throws {
        let server = try ScriptedHTTPServer { target in
            target.hasPrefix("/stall") ? .stall(for: .seconds(120)) : .status(204)
        }
        defer { server.stop() }
        let transport = Self.transport(depth: 4, connections: 4)
        let first = await transport.send(server.baseURL + "/ok", timeout: .seconds(seconds.first))
        #expect(first.status == 204)
        let stalled = await transport.send(server.baseURL + "/stall", timeout: .seconds(seconds.stalled))
        await transport.shutdown()
        #expect(stalled.error == .timedOut)
        #expect(stalled.latency >= .seconds(seconds.stalled) && stalled.latency < .seconds(100), "at its own deadline: \(stalled.latency)")
        #expect(server.connections == 1)
    }

    @Test func onAnEventLoop_withAFreeSlot_anAttemptStartsAtOnce_andItsAnswerComesOnTheLoop() async throws {
        let server = try ScriptedHTTPServer(replies: [.status(204)])
        defer { server.stop() }
        let transport = Self.transport(depth: 2, connections: 2)
        let executor = EventLoopTaskExecutor.shared[0]
        let outcome: (started: Bool, onLoop: Bool, status: Int?) = await withTaskExecutorPreference(executor) {
            // Off any free slot: nothing starts, the caller sends in a task.
            let none = transport.startNow(server.baseURL + "/a", timeout: .seconds(300)) { _ in }
            #expect(!none)
            // One exchange opens a connection on this loop; it has slots left after it.
            _ = await transport.send(server.baseURL + "/b", timeout: .seconds(300))
            return await withCheckedContinuation { continuation in
                let started = transport.startNow(server.baseURL + "/c", timeout: .seconds(300)) { outcome in
                    continuation.resume(returning: (true, MultiThreadedEventLoopGroup.currentEventLoop === executor.loop, outcome.status))
                }
                if !started { continuation.resume(returning: (false, false, nil)) }
            }
        }
        await transport.shutdown()
        #expect(outcome.started && outcome.onLoop && outcome.status == 204, "\(outcome)")
        #expect(server.requests().map(\.target) == ["/b", "/c"])
    }

    /// A connection writes each request into the storage of its last one. Pipelined requests started together wait
    /// for one flush, the channel holding each meanwhile: each must go out whole, not written over by the next (a
    /// long one first, so a shorter one written over it would leave its tail).
    @Test func pipelinedAttemptsStartedTogether_eachGoOutWhole() async throws {
        let server = try ScriptedHTTPServer(replies: [.status(204)])
        defer { server.stop() }
        let transport = Self.transport(depth: 4, connections: 4)
        let executor = EventLoopTaskExecutor.shared[0]
        let long = "/c1?" + String(repeating: "x", count: 600)
        let statuses: [Int?] = await withTaskExecutorPreference(executor) {
            _ = await transport.send(server.baseURL + "/b", timeout: .seconds(300))
            return await withCheckedContinuation { continuation in
                let answered = Locked<[Int?]>([])
                let targets = [long, "/c2", "/c3?q=1"]
                for target in targets {
                    let started = transport.startNow(server.baseURL + target, timeout: .seconds(300)) { outcome in
                        let all = answered.withLock { $0.append(outcome.status); return $0.count == targets.count ? $0 : nil }
                        if let all { continuation.resume(returning: all) }
                    }
                    if !started {
                        let all = answered.withLock { $0.append(nil); return $0.count == targets.count ? $0 : nil }
                        if let all { continuation.resume(returning: all) }
                    }
                }
            }
        }
        await transport.shutdown()
        #expect(statuses == [204, 204, 204])
        #expect(server.requests().map(\.target) == ["/b", long, "/c2", "/c3?q=1"])
        #expect(server.connections == 1)
    }
}

/// The pool's bookkeeping: each event loop opens at most its share of the connections, so every loop (each with its
/// share of a fleet's requests in flight) has connections of its own.
@Suite(.hangLimit) struct HostPoolTests {
    static func isOpen(_ lease: HostPool.Lease) -> Bool {
        if case .open = lease { return true }
        return false
    }

    @Test func eachLoop_opensAtMostItsShare_andAPlaceGivenUpGoesToAWaiter() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { group.shutdownGracefully { _ in } }
        let loops = Array(group.makeIterator())
        try #require(loops.count == 2 && loops[0] !== loops[1])
        let pool = HostPool(key: .init(host: "127.0.0.1", port: 80), limit: 4, loops: 2)
        let first = await pool.acquire(on: loops[0]), second = await pool.acquire(on: loops[0]), other = await pool.acquire(on: loops[1])
        #expect(Self.isOpen(first) && Self.isOpen(second) && Self.isOpen(other))
        // The first loop has opened its two: its third request waits, though the pool's limit is not reached.
        let third = Task { await pool.acquire(on: loops[0]) }
        while pool.waiting < 1 { await Task.yield() }
        let otherSecond = await pool.acquire(on: loops[1])
        #expect(Self.isOpen(otherSecond), "the second loop still opens its share")
        // A connection of the second loop that could not open gives its place to the waiter.
        pool.failedToOpen(for: ObjectIdentifier(loops[1]))
        let handed = await third.value
        #expect(Self.isOpen(handed))
    }
}

/// A pool's free slots, a list per event loop: a slot is taken from its own loop's list, last freed first, and
/// never from another loop's.
@Suite struct SlotListsTests {
    final class Loop: Sendable {}

    @Test func eachLoopsSlots_areItsOwn_lastFreedFirst() {
        let (first, second) = (Loop(), Loop())
        let (a, b) = (ObjectIdentifier(first), ObjectIdentifier(second))
        var lists = SlotLists<String>()
        #expect(lists.pop(on: a) == nil)
        lists.push("a1", on: a)
        lists.push("b1", on: b)
        lists.push("a2", on: a)
        #expect(lists.loops == [a, b])
        #expect(lists.pop(on: a) == "a2" && lists.pop(on: a) == "a1")
        #expect(lists.pop(on: a) == nil, "b's slot is not a's")
        #expect(lists.pop(on: b) == "b1" && lists.pop(on: b) == nil)
        lists.push("b2", on: b)
        #expect(lists.lists == [[], ["b2"]])
        lists.removeAll()
        #expect(lists.loops.isEmpty && lists.pop(on: b) == nil)
    }
}
