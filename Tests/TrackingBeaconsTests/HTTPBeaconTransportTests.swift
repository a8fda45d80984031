import Primitives
import Foundation
import TestSupport
import Testing
@testable import TrackingBeacons

/// The real transport over loopback HTTP: failing fast, deadlines that cover the body, redirects, the User-Agent on
/// the wire, and which failures the dispatcher may retry. The test process runs many suites on two cores, so timing
/// bounds are wide: a minute, where the broken behaviour takes all of a 2-minute timeout (a refused connection took
/// 18 s in a parallel run on a busy machine); where the timeout is not what is tested it is 30 s, so a loaded machine
/// cannot make a healthy exchange time out.
@Suite(.timeLimit(.minutes(3))) struct HTTPBeaconTransportTests {
    static let userAgent = "vplay-test/1.0 (simulated iPhone)"

    /// Serves `/ok` (a GIF), `/chain/N` (N redirects before a 200), `/loop` ↔ `/loop2`, `/stall` (head, then a body
    /// that stops), `/reset` and `/fail` (500).
    static func server() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { target in
            let path = target.split(separator: "?").first.map(String.init) ?? target
            if path == "/ok" {
                return .respond(status: 200, headers: [.init("Content-Type", "image/gif"), .init("X-Beacon", "seen")], body: Data("GIF89a".utf8))
            }
            if path.hasPrefix("/chain/"), let left = Int(path.dropFirst("/chain/".count)) {
                return left == 0 ? .respond(status: 200, headers: [.init("Content-Type", "text/plain; charset=utf-8")], body: Data("end".utf8))
                    : .redirect(to: "/chain/\(left - 1)")
            }
            if path == "/loop" { return .redirect(to: "/loop2") }
            if path == "/loop2" { return .redirect(to: "/loop") }
            if path == "/stall" { return .stallBody(promised: 43, sent: Data("GIF".utf8), closeAfter: .seconds(120)) }
            if path == "/reset" { return .reset }
            return .status(500)
        }
    }

    @Test func refusedConnection_failsAtOnceWithConnectionRefused_notAtTheTimeout() async throws {
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        defer { Task { await transport.shutdown() } }
        let outcome = await transport.send("http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/impression", timeout: .seconds(120))
        #expect(outcome.error == .connectionRefused)
        #expect(outcome.status == nil && outcome.failedBeforeSending)
        #expect(outcome.latency < .seconds(60), "refused in \(outcome.latency), not at the 120 s timeout")
        await transport.shutdown()
    }

    @Test func bodyThatStallsAfterTheHead_endsAtTheTimeout_withTheStatusThatArrived() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/stall", timeout: .seconds(1))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.delivered)
        #expect(outcome.error == .bodyTimedOut)
        #expect(outcome.bytes == 3)
        #expect(outcome.latency >= .seconds(1) && outcome.latency < .seconds(60),
                "ended by the 1 s timeout, not the server's close at 120 s: \(outcome.latency)")
        #expect(!outcome.failedBeforeSending)
    }

    @Test func response_carriesItsHeadersTheRequestedURLAndTheUserAgentOnTheWire() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/ok?cb=1", timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.error == nil && outcome.bytes == 6)
        #expect(outcome.requestedURL == server.baseURL + "/ok?cb=1")
        #expect(outcome.headers.contains(HeaderField(name: "Content-Type", value: "image/gif")))
        #expect(outcome.headers.contains(HeaderField(name: "X-Beacon", value: "seen")))
        #expect(outcome.redirects.isEmpty)
        #expect(server.requests().map { [$0.target, $0.userAgent] } == [["/ok?cb=1", Self.userAgent]])
    }

    /// Not a timing test: the limits are long, so a test process starved by the parallel suite still follows the chain.
    @Test func redirects_fiveAreFollowed_withTheUserAgentOnEveryHop() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, connectTimeout: .seconds(60), clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/chain/5", timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.error == nil, "\(outcome)")
        #expect(outcome.redirects == (0...4).reversed().map { server.baseURL + "/chain/\($0)" })
        #expect(outcome.headers.contains(HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")))
        #expect(server.requests().map(\.target) == (0...5).reversed().map { "/chain/\($0)" })
        #expect(server.requests().allSatisfy { $0.userAgent == Self.userAgent })
    }

    /// Not a timing test: the limits are long, so a test process starved by the parallel suite still follows the chain.
    @Test func redirects_aSixth_isTooManyRedirects_andACycleIsARedirectCycle() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, connectTimeout: .seconds(60), clock: ContinuousClock())
        let six = await transport.send(server.baseURL + "/chain/6", timeout: .seconds(120))
        let loop = await transport.send(server.baseURL + "/loop", timeout: .seconds(120))
        await transport.shutdown()
        #expect(six.status == nil && six.error == .tooManyRedirects && !six.failedBeforeSending)
        #expect(loop.status == nil && loop.error == .redirectCycle && !loop.failedBeforeSending)
        #expect(server.requests().filter { $0.target.hasPrefix("/chain/") }.count == 6, "the sixth Location is not requested")
    }

    @Test func resetAfterTheRequestWasWritten_isConnectionReset_notBeforeSending() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/reset", timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == nil && outcome.error == .connectionReset)
        #expect(!outcome.failedBeforeSending)
    }
}

/// Retries over real HTTP: only what never reached the server, and 5xx answers, are sent again.
@Suite(.timeLimit(.minutes(3))) struct HTTPRetryTests {
    /// One beacon with a 120 s timeout; the session end waits at most 90 s, so an attempt that runs into its timeout
    /// shows as unanswered.
    func dispatch(_ url: String, retries: Int) async -> [BeaconRecord] {
        let transport = HTTPBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock())
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(timeout: .seconds(120), retries: retries, backoff: .milliseconds(1)),
                                          clock: ContinuousClock(), wallClock: { 1_767_225_600_000 }) { await collected.add($0) }
        await dispatcher.submit(PlannedBeacon(event: "midpoint", source: "inline", template: url, url: url, playhead: .zero, clock: .zero))
        await dispatcher.finish(waitingAtMost: .seconds(90))
        await transport.shutdown()
        return await collected.records
    }

    @Test func redirectCycle_withRetries_walksTheChainOnce() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/loop", retries: 2)
        #expect(records.map(\.error) == ["redirect cycle"])
        #expect(server.requests().map(\.target) == ["/loop", "/loop2"])
    }

    @Test func tooManyRedirects_withRetries_walksTheChainOnce() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/chain/6", retries: 2)
        #expect(records.map(\.error) == ["too many redirects"])
        #expect(server.requests().count == 6)
    }

    @Test func resetAfterSending_withRetries_isSentOnce() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/reset", retries: 2)
        #expect(records.map(\.error) == ["connection reset"])
        #expect(server.requests().count == 1)
    }

    @Test func serverError_withRetries_isSentAgainUntilTheLimit() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/fail", retries: 2)
        #expect(records.map(\.status) == [500, 500, 500])
        #expect(records.map(\.attempt) == [1, 2, 3])
        #expect(server.requests().count == 3)
    }

    @Test func refused_withRetries_isTriedAgainAndEachAttemptFailsFast() async throws {
        let records = await dispatch("http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/x", retries: 2)
        #expect(records.map(\.error) == ["connection refused", "connection refused", "connection refused"])
        #expect(records.map(\.isFinalAttempt) == [false, false, true])
        #expect(records.allSatisfy { ($0.latency ?? .seconds(999)) < .seconds(60) }, "not at the 120 s timeout")
    }
}
