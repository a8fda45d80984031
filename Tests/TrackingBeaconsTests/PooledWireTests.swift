import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Networking
import Testing
import TestSupport
@_spi(LiveParts) @testable import TrackingBeacons

/// The pooled transport's own HTTP/1.1 on the wire, against a server that answers with bytes a script gives (what
/// no well-behaved server sends included): the request's exact bytes, answers framed every way, and answers that
/// are not HTTP.
@Suite(.hangLimit) struct PooledWireTests {
    /// Answers request *n* of the whole server with `answers[n]` (the last repeats) and closes the connection after
    /// it when `closeAfter` says so (its sending side: what comes after is read and dropped, as servers linger, so
    /// that requests left unread do not turn the close into a reset); records what it read.
    final class RawServer: Sendable {
        let port: Int
        private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        private let channel: any Channel
        let state: NIOLockedValueBox<(received: String, requests: Int, connections: Int)>

        init(answers: [String], closeAfter: @escaping @Sendable (Int) -> Bool = { _ in false }) throws {
            let state = NIOLockedValueBox((received: "", requests: 0, connections: 0))
            self.state = state
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    state.withLockedValue { $0.connections += 1 }
                    return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Handler(answers: answers, closeAfter: closeAfter, state: state)) }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
            port = channel.localAddress?.port ?? 0
        }

        var baseURL: String { "http://127.0.0.1:\(port)" }

        func stop() {
            try? channel.close().wait()
            try? group.syncShutdownGracefully()
        }

        final class Handler: ChannelInboundHandler, @unchecked Sendable {
            typealias InboundIn = ByteBuffer
            typealias OutboundOut = ByteBuffer
            let answers: [String]
            let closeAfter: @Sendable (Int) -> Bool
            let state: NIOLockedValueBox<(received: String, requests: Int, connections: Int)>
            var pending = ""
            /// The sending side is closed: nothing more is answered.
            var closed = false

            init(answers: [String], closeAfter: @escaping @Sendable (Int) -> Bool, state: NIOLockedValueBox<(received: String, requests: Int, connections: Int)>) {
                self.answers = answers
                self.closeAfter = closeAfter
                self.state = state
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                let text = String(buffer: unwrapInboundIn(data))
                guard !closed else { return }
                pending += text
                state.withLockedValue { $0.received += text }
                while let end = pending.range(of: "\r\n\r\n") {
                    pending.removeSubrange(..<end.upperBound)
                    let index = state.withLockedValue { state in
                        defer { state.requests += 1 }
                        return state.requests
                    }
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answers[min(index, answers.count - 1)])), promise: nil)
                    if closeAfter(index) {
                        closed = true
                        context.close(mode: .output, promise: nil)
                        return
                    }
                }
            }
        }
    }

    /// One connection, one request at a time, unless `pipelined` (that many on one connection).
    static func transport(keepsHeaders: Bool = true, pipelined depth: Int = 1) -> PooledBeaconTransport {
        PooledBeaconTransport(userAgent: "vplay-test/1.0 (wire)", clock: ContinuousClock(), maxConnectionsPerHost: depth, pipelineDepth: depth,
                              keepsHeaders: keepsHeaders, fallback: HTTPBeaconTransport(userAgent: "vplay-test", clock: ContinuousClock()))
    }

    @Test func request_isTheTargetHostAndUserAgentExactly_andItsConnectionIsReused() async throws {
        let server = try RawServer(answers: ["HTTP/1.1 204 No Content\r\nServer: raw\r\n\r\n"])
        defer { server.stop() }
        let transport = Self.transport()
        let first = await transport.send("\(server.baseURL)/impression?cb=12345678&u=a%20b", timeout: .seconds(300))
        let second = await transport.send("\(server.baseURL)/start", timeout: .seconds(300))
        // No path: the target is `/`, before a query too.
        let bare = await transport.send(server.baseURL, timeout: .seconds(300))
        let query = await transport.send("\(server.baseURL)?q=1", timeout: .seconds(300))
        await transport.shutdown()
        #expect(first.status == 204 && first.error == nil && first.headers == [HeaderField(name: "Server", value: "raw")])
        #expect(second.status == 204 && second.error == nil && bare.status == 204 && query.status == 204)
        let host = "127.0.0.1:\(server.port)"
        #expect(server.state.withLockedValue { $0.received } ==
            "GET /impression?cb=12345678&u=a%20b HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: vplay-test/1.0 (wire)\r\n\r\n"
            + "GET /start HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: vplay-test/1.0 (wire)\r\n\r\n"
            + "GET / HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: vplay-test/1.0 (wire)\r\n\r\n"
            + "GET /?q=1 HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: vplay-test/1.0 (wire)\r\n\r\n")
        #expect(server.state.withLockedValue { $0.connections } == 1)
    }

    @Test func chunkedAnswer_isCountedByItsChunks_andItsConnectionIsReused() async throws {
        let server = try RawServer(answers: ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nGIF\r\n4;x=y\r\n89a!\r\n0\r\n\r\n"])
        defer { server.stop() }
        let transport = Self.transport()
        let outcomes = [await transport.send("\(server.baseURL)/a", timeout: .seconds(300)), await transport.send("\(server.baseURL)/b", timeout: .seconds(300))]
        await transport.shutdown()
        #expect(outcomes.allSatisfy { $0.status == 200 && $0.error == nil && $0.bytes == 7 }, "\(outcomes)")
        #expect(server.state.withLockedValue { $0.connections } == 1)
    }

    @Test func answerWithNoLength_endsAtTheClose_delivered_andTheNextRequestOpensAConnection() async throws {
        let server = try RawServer(answers: ["HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a"], closeAfter: { _ in true })
        defer { server.stop() }
        let transport = Self.transport()
        let outcomes = [await transport.send("\(server.baseURL)/a", timeout: .seconds(300)), await transport.send("\(server.baseURL)/b", timeout: .seconds(300))]
        await transport.shutdown()
        #expect(outcomes.allSatisfy { $0.status == 200 && $0.error == nil && $0.bytes == 6 && $0.delivered }, "\(outcomes)")
        #expect(server.state.withLockedValue { $0.connections } == 2)
    }

    @Test func pipelinedBehindAnAnswerThatEndsAtTheClose_isSentAgain_andAnsweredOnce() async throws {
        // Every connection: one answer whose body runs to the close, then the close (the server reads no further).
        let server = try RawServer(answers: ["HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a"], closeAfter: { _ in true })
        defer { server.stop() }
        let transport = Self.transport(pipelined: 4)
        // A request is sent again only within its timeout. In the whole suite's busiest minute this test once ran
        // 100 s, and a request still to be sent again after 30 s was given up as closed by the server: the limit
        // is the suite's time limit, far from anything the test measures.
        let outcomes = await withTaskGroup(of: TransportOutcome.self) { group in
            for index in 0..<4 { group.addTask { await transport.send("\(server.baseURL)/b\(index)", timeout: .seconds(110)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await transport.shutdown()
        #expect(outcomes.allSatisfy { $0.status == 200 && $0.error == nil && $0.bytes == 6 }, "\(outcomes.map { "\($0.status.map(String.init) ?? "-") \($0.error.map { "\($0)" } ?? "ok")" })")
        #expect(server.state.withLockedValue { $0.requests } == 4, "each answered once")
    }

    @Test func answerThatIsNotHTTP_failsThatBeacon_withoutRetry_andTheNextOneGetsANewConnection() async throws {
        let server = try RawServer(answers: ["HTTP/1.1 2x0 OK\r\n\r\n", "HTTP/1.1 204 No Content\r\n\r\n"])
        defer { server.stop() }
        let transport = Self.transport()
        let bad = await transport.send("\(server.baseURL)/a", timeout: .seconds(300))
        let good = await transport.send("\(server.baseURL)/b", timeout: .seconds(300))
        await transport.shutdown()
        guard case let .other(why)? = bad.error else {
            Issue.record("expected a failure, got \(bad)")
            return
        }
        #expect(why.contains("invalid HTTP response") && bad.status == nil && !bad.failedBeforeSending)
        #expect(good.status == 204 && good.error == nil)
        #expect(server.state.withLockedValue { ($0.requests, $0.connections) } == (2, 2))
    }

    @Test func redirect_isFollowedFromItsLocation_whenHeadersAreNotKept() async throws {
        let server = try RawServer(answers: ["HTTP/1.1 302 Found\r\nLocation: /final?x=1\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 204 No Content\r\nServer: raw\r\n\r\n"])
        defer { server.stop() }
        let transport = Self.transport(keepsHeaders: false)
        let outcome = await transport.send("\(server.baseURL)/first", timeout: .seconds(300))
        await transport.shutdown()
        #expect(outcome.status == 204 && outcome.error == nil && outcome.redirects == ["\(server.baseURL)/final?x=1"], "\(outcome)")
        #expect(outcome.headers.isEmpty, "a fleet's transport keeps no header fields")
        #expect(server.state.withLockedValue { $0.received }.contains("GET /final?x=1 HTTP/1.1\r\n"))
    }

    @Test func bytesNoRequestAskedFor_closeTheIdleConnection_andTheNextRequestOpensAnother() async throws {
        // The answer comes with a second, unasked-for one behind it (a server's 408 on an idle connection, say).
        let server = try RawServer(answers: ["HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\n\r\n"])
        defer { server.stop() }
        let transport = Self.transport()
        let first = await transport.send("\(server.baseURL)/a", timeout: .seconds(300))
        let second = await transport.send("\(server.baseURL)/b", timeout: .seconds(300))
        await transport.shutdown()
        #expect(first.status == 204 && first.error == nil && second.status == 204 && second.error == nil)
        #expect(server.state.withLockedValue { $0.connections } == 2)
    }
}
