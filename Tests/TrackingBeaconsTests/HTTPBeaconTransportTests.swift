import Networking
import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import TrackingBeacons

/// The real transports: the full one (async-http-client; a single session's), the pooled one (a fleet's), and the
/// pooled one pipelining up to 4 requests a connection (`fleet --pipeline 4`). Every test of the transport runs on
/// each.
/// The transports under test. Their deadlines are readiness waits far past what a test needs (300 s to connect and
/// between body reads, 480 s a request): a whole-suite run on a fresh clone starved one of these tests for two
/// minutes, and a 120 s request deadline read a redirect chain's last body as timed out. Only the stall test sets a
/// short one, which is what it is about.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case full, pooled, pipelined
    var testDescription: String { rawValue }

    func make(userAgent: String, connectTimeout: Duration = .seconds(300)) -> any ShutdownTransport {
        let full = HTTPBeaconTransport(userAgent: userAgent, connectTimeout: connectTimeout, clock: ContinuousClock())
        switch self {
        case .full: return full
        case .pooled: return PooledBeaconTransport(userAgent: userAgent, connectTimeout: connectTimeout, clock: ContinuousClock(), fallback: full)
        case .pipelined:
            return PooledBeaconTransport(userAgent: userAgent, connectTimeout: connectTimeout, clock: ContinuousClock(), pipelineDepth: 4, fallback: full)
        }
    }
}

/// A transport with a pool to close.
protocol ShutdownTransport: BeaconTransport { func shutdown() async }
extension HTTPBeaconTransport: ShutdownTransport {}
extension PooledBeaconTransport: ShutdownTransport {}

/// The real transport over loopback HTTP: failing fast, deadlines that cover the body, redirects, the User-Agent on
/// the wire, and which failures the dispatcher may retry. The test process runs many suites on two cores, so timing
/// bounds are half the time the broken behaviour takes (a refused connection took 18 s in a parallel run on a busy
/// machine, then 68 s in two whole-suite runs whose cooperative threads were all busy at the start); where the
/// timeout is not what is tested it is long, so a loaded machine cannot make a healthy exchange time out.
@Suite(.hangLimit) struct HTTPBeaconTransportTests {
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
            if path == "/stall" { return .stallBody(promised: 43, sent: Data("GIF".utf8), closeAfter: .seconds(600)) }
            if path == "/reset" { return .reset }
            return .status(500)
        }
    }

    @Test(arguments: TransportKind.allCases) func refusedConnection_failsAtOnceWithConnectionRefused_notAtTheTimeout(_ kind: TransportKind) async throws {
        let transport = kind.make(userAgent: Self.userAgent)
        defer { Task { await transport.shutdown() } }
        let outcome = await transport.send("http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/impression", timeout: .seconds(480))
        #expect(outcome.error == .connectionRefused)
        #expect(outcome.status == nil && outcome.failedBeforeSending)
        #expect(outcome.latency < .seconds(240), "refused in \(outcome.latency), not at the 480 s timeout")
        await transport.shutdown()
    }

    /// On both transports: the deadline runs on the connection's event loop from the request's start (the pooled
    /// transport connects and sends there in one chain), so a test process whose cooperative threads are busy for
    /// tens of seconds, as the whole suite's are at times, still sees the head that came and the timeout at 5 s.
    @Test(arguments: TransportKind.allCases) func bodyThatStallsAfterTheHead_endsAtTheTimeout_withTheStatusThatArrived(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = kind.make(userAgent: Self.userAgent, connectTimeout: .seconds(5))
        // 5 s: long enough for the head to arrive on a loaded machine, far under the server's close at 600 s.
        let outcome = await transport.send(server.baseURL + "/stall", timeout: .seconds(5))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.delivered, "\(outcome)")
        #expect(outcome.error == .bodyTimedOut)
        #expect(outcome.bytes == 3)
        #expect(outcome.latency >= .seconds(5) && outcome.latency < .seconds(300),
                "ended by the 5 s timeout, not the server's close at 600 s: \(outcome.latency)")
        #expect(!outcome.failedBeforeSending)
    }

    @Test(arguments: TransportKind.allCases) func response_carriesItsHeadersTheRequestedURLAndTheUserAgentOnTheWire(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = kind.make(userAgent: Self.userAgent)
        let outcome = await transport.send(server.baseURL + "/ok?cb=1", timeout: .seconds(480))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.error == nil && outcome.bytes == 6)
        #expect(outcome.requestedURL == server.baseURL + "/ok?cb=1")
        #expect(outcome.headers.contains(HeaderField(name: "Content-Type", value: "image/gif")))
        #expect(outcome.headers.contains(HeaderField(name: "X-Beacon", value: "seen")))
        #expect(outcome.redirects.isEmpty)
        #expect(server.requests().map { [$0.target, $0.userAgent] } == [["/ok?cb=1", Self.userAgent]])
    }

    /// Not a timing test: the limits are long, so a test process starved by the parallel suite still follows the chain.
    @Test(arguments: TransportKind.allCases) func redirects_fiveAreFollowed_withTheUserAgentOnEveryHop(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = kind.make(userAgent: Self.userAgent, connectTimeout: .seconds(300))
        let outcome = await transport.send(server.baseURL + "/chain/5", timeout: .seconds(480))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.error == nil, "\(outcome)")
        #expect(outcome.redirects == (0...4).reversed().map { server.baseURL + "/chain/\($0)" })
        #expect(outcome.headers.contains(HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")))
        #expect(server.requests().map(\.target) == (0...5).reversed().map { "/chain/\($0)" })
        #expect(server.requests().allSatisfy { $0.userAgent == Self.userAgent })
    }

    /// Not a timing test: the limits are long, so a test process starved by the parallel suite still follows the chain.
    @Test(arguments: TransportKind.allCases) func redirects_aSixth_isTooManyRedirects_andACycleIsARedirectCycle(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = kind.make(userAgent: Self.userAgent, connectTimeout: .seconds(300))
        let six = await transport.send(server.baseURL + "/chain/6", timeout: .seconds(480))
        let loop = await transport.send(server.baseURL + "/loop", timeout: .seconds(480))
        await transport.shutdown()
        #expect(six.status == nil && six.error == .tooManyRedirects && !six.failedBeforeSending)
        #expect(loop.status == nil && loop.error == .redirectCycle && !loop.failedBeforeSending)
        #expect(server.requests().filter { $0.target.hasPrefix("/chain/") }.count == 6, "the sixth Location is not requested")
    }

    @Test(arguments: TransportKind.allCases) func resetAfterTheRequestWasWritten_isConnectionReset_notBeforeSending(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = kind.make(userAgent: Self.userAgent)
        let outcome = await transport.send(server.baseURL + "/reset", timeout: .seconds(480))
        await transport.shutdown()
        #expect(outcome.status == nil && outcome.error == .connectionReset)
        #expect(!outcome.failedBeforeSending)
    }
}

/// Retries over real HTTP: only what never reached the server, and 5xx answers, are sent again.
@Suite(.hangLimit) struct HTTPRetryTests {
    /// One beacon with a timeout of an hour; the session end waits at most 8 minutes (under the 10-minute hang limit),
    /// so an attempt that runs into its timeout shows as unanswered. Both are readiness waits, not assertions: on a
    /// busy machine (the suite's other tests on the same two cores) a refused attempt's answer once took longer than
    /// the 90 s drain this had, and the third attempt was cut as unanswered. The transport's connect and read
    /// deadline is 10 minutes for the same reason: with 5 s, a fresh clone's whole-suite run saw the server's reset
    /// only after the read deadline, and the attempt was `timed out`, not `connection reset`.
    func dispatch(_ url: String, retries: Int, _ kind: TransportKind) async -> [BeaconRecord] {
        let transport = kind.make(userAgent: "vplay-test", connectTimeout: .seconds(600))
        let collected = Collected()
        let dispatcher = BeaconDispatcher(transport: transport, policy: BeaconPolicy(timeout: .seconds(3600), retries: retries, backoff: .milliseconds(1)),
                                          clock: ContinuousClock(), wallClock: { 1_767_225_600_000 }) { await collected.add($0) }
        await dispatcher.submit(PlannedBeacon(event: "midpoint", source: "inline", template: url, url: url, playhead: .zero, clock: .zero))
        await dispatcher.finish(waitingAtMost: .seconds(480))
        await transport.shutdown()
        return await collected.records
    }

    @Test(arguments: TransportKind.allCases) func redirectCycle_withRetries_walksTheChainOnce(_ kind: TransportKind) async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/loop", retries: 2, kind)
        #expect(records.map(\.error) == ["redirect cycle"])
        #expect(server.requests().map(\.target) == ["/loop", "/loop2"])
    }

    @Test(arguments: TransportKind.allCases) func tooManyRedirects_withRetries_walksTheChainOnce(_ kind: TransportKind) async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/chain/6", retries: 2, kind)
        #expect(records.map(\.error) == ["too many redirects"])
        #expect(server.requests().count == 6)
    }

    @Test(arguments: TransportKind.allCases) func resetAfterSending_withRetries_isSentOnce(_ kind: TransportKind) async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/reset", retries: 2, kind)
        #expect(records.map(\.error) == ["connection reset"])
        #expect(server.requests().count == 1)
    }

    @Test(arguments: TransportKind.allCases) func serverError_withRetries_isSentAgainUntilTheLimit(_ kind: TransportKind) async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let records = await dispatch(server.baseURL + "/fail", retries: 2, kind)
        #expect(records.map(\.status) == [500, 500, 500])
        #expect(records.map(\.attempt) == [1, 2, 3])
        #expect(server.requests().count == 3)
    }

    @Test(arguments: TransportKind.allCases) func refused_withRetries_isTriedAgainAndEachAttemptFailsFast(_ kind: TransportKind) async throws {
        let records = await dispatch("http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/x", retries: 2, kind)
        #expect(records.map(\.error) == ["connection refused", "connection refused", "connection refused"])
        #expect(records.map(\.isFinalAttempt) == [false, false, true])
        // Refused at once, not at the hour's timeout (which the drain would have cut: "unanswered at session end").
        #expect(records.allSatisfy { ($0.latency ?? .seconds(9999)) < .seconds(480) }, "not at the timeout")
    }
}

/// What the pooled transport adds: connections kept alive and reused, a bound on them per host, a huge body cut off
/// (and its connection not reused), TLS through the full transport, every URL gated.
@Suite(.hangLimit) struct PooledBeaconTransportTests {
    @Test func sequentialBeacons_reuseOneKeepAliveConnection() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let transport = TransportKind.pooled.make(userAgent: "vplay-test")
        for index in 0..<50 {
            let outcome = await transport.send(server.baseURL + "/ok?n=\(index)", timeout: .seconds(480))
            #expect(outcome.status == 200 && outcome.error == nil && outcome.bytes == 6)
        }
        await transport.shutdown()
        #expect(server.requests().count == 50)
        #expect(server.connections == 1, "one connection carried all 50: \(server.connections)")
    }

    @Test func concurrentBeacons_openAtMostTheBoundOfConnections() async throws {
        let server = try HTTPBeaconTransportTests.server()
        defer { server.stop() }
        let full = HTTPBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock())
        let transport = PooledBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock(), maxConnectionsPerHost: 4, fallback: full)
        let outcomes = await withTaskGroup(of: TransportOutcome.self) { group in
            for index in 0..<64 { group.addTask { await transport.send(server.baseURL + "/ok?n=\(index)", timeout: .seconds(480)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await transport.shutdown()
        #expect(outcomes.count == 64 && outcomes.allSatisfy { $0.status == 200 && $0.error == nil })
        #expect(server.connections <= 4, "\(server.connections) connections for a bound of 4")
        #expect(Set(server.requests().map(\.target)).count == 64, "each sent once")
    }

    @Test func hugeBody_isCutAtTheCap_andItsConnectionIsNotReused() async throws {
        let huge = Data(count: 4 * 1024 * 1024)
        let server = try ScriptedHTTPServer { target in
            target.hasPrefix("/huge") ? .respond(status: 200, headers: [.init("Content-Type", "image/gif")], body: huge) : .status(204)
        }
        defer { server.stop() }
        let transport = TransportKind.pooled.make(userAgent: "vplay-test")
        let outcome = await transport.send(server.baseURL + "/huge", timeout: .seconds(480))
        #expect(outcome.status == 200 && outcome.error == nil)
        #expect(outcome.bytes >= HTTPBeaconTransport.maxBodyBytes && outcome.bytes < huge.count, "\(outcome.bytes) bytes read of \(huge.count)")
        let next = await transport.send(server.baseURL + "/next", timeout: .seconds(480))
        await transport.shutdown()
        #expect(next.status == 204)
        #expect(server.connections == 2, "the cut connection was closed, the next beacon opened another")
    }

    @Test func https_goesThroughTheFullTransport_andAnUntrustedCertificateFailsAsThere() async throws {
        let server = try ScriptedHTTPServer(replies: [.status(204)], tls: true)
        defer { server.stop() }
        let transport = TransportKind.pooled.make(userAgent: "vplay-test")
        let outcome = await transport.send(server.baseURL + "/impression", timeout: .seconds(480))
        await transport.shutdown()
        #expect(outcome.status == nil && outcome.failedBeforeSending)
        if case .tlsHandshakeFailed = outcome.error {} else { Issue.record("expected a TLS handshake failure: \(String(describing: outcome.error))") }
    }

    @Test func aURLThatCannotBeRequested_isRefusedUnsent() async throws {
        let transport = TransportKind.pooled.make(userAgent: "vplay-test")
        let outcome = await transport.send("http://127.0.0.1:99999/impression", timeout: .seconds(480))
        await transport.shutdown()
        if case .refused = outcome.error {} else { Issue.record("expected a refusal: \(String(describing: outcome.error))") }
        #expect(outcome.status == nil && !outcome.failedBeforeSending)
    }
}
