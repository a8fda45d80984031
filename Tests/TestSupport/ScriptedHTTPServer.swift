import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The tests' one HTTP server, on 127.0.0.1 at a port the OS picks, plain or TLS (`tls: true`: the test-only
/// certificate for 127.0.0.1 in `TestCertificate`, which nothing trusts). Each request gets the `Reply` a script
/// chooses: request *n* gets reply *n* of a list (the last one repeats), or a route picks one by target (path and
/// query), or it serves a folder (`init(files:)`, the file server FFmpeg and the beacon tests read from). Replies
/// include the hostile ones: stalls, trickles, endless or huge bodies, resets. Every request is recorded with what was
/// answered and how many body bytes went out. Keep-alive is honoured for complete replies, so pooled clients behave as
/// against a real server; the hostile replies end their connection.
///
/// Built on SwiftNIO with an event loop of its own: the server answers on its own thread however busy the test
/// process's cooperative pool is, and `stop()` ends every connection (a stalled, trickling or endless reply at once).
public final class ScriptedHTTPServer: Sendable {
    /// The listening port.
    public let port: Int
    /// Whether it speaks TLS (then `baseURL` is `https://`).
    public let tls: Bool
    let log: ServerLog
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel

    /// Request *n* gets `replies[n]`; the last reply repeats.
    public convenience init(replies: [Reply], tls: Bool = false) throws {
        precondition(!replies.isEmpty, "a script needs at least one reply")
        try self.init(tls: tls) { request in replies[min(request.index, replies.count - 1)] }
    }

    /// Each request gets the reply `route` chooses for its target (path and query, as sent).
    public convenience init(tls: Bool = false, route: @escaping @Sendable (_ target: String) -> Reply) throws {
        try self.init(tls: tls) { request in route(request.target) }
    }

    init(tls: Bool, choose: @escaping @Sendable (_ request: (index: Int, target: String)) -> Reply) throws {
        let sslContext = tls ? try TestCertificate.serverContext() : nil
        let log = ServerLog(choose: choose)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let connection = log.accept(channel) else {
                        channel.close(promise: nil)
                        return
                    }
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext { try pipeline.addHandler(NIOSSLServerHandler(context: sslContext)) }
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(ScriptedConnectionHandler(log: log, connection: connection))
                }
            }
        do {
            listener = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        port = listener.localAddress?.port ?? 0
        self.tls = tls
        self.log = log
        self.group = group
    }

    deinit { stop() }

    public var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    /// How many connections the server has accepted so far.
    public var connections: Int { log.state.withLockedValue { $0.accepted } }

    /// How many connections are open right now (accepted, not closed by either side).
    public var openConnections: Int { log.state.withLockedValue { $0.open.count } }

    /// How many requests the server has read whole, including those waiting behind one it is answering.
    public var requestsRead: Int { log.state.withLockedValue { $0.read } }

    /// The requests received so far, in the order they arrived.
    public func requests() -> [Request] { log.state.withLockedValue { $0.requests } }

    /// Stops listening and ends every connection (its thread ends shortly after); what was recorded stays readable.
    /// Call it once the test is done
    /// (`defer`); it is safe to call twice, and `deinit` calls it too.
    public func stop() {
        let open: [any Channel]? = log.state.withLockedValue { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            return Array(state.open.values)
        }
        guard let open else { return }
        listener.close(promise: nil)
        for channel in open { channel.close(promise: nil) }
        // Not waited for: tests stop their servers in `defer` on cooperative threads, and a blocking shutdown there
        // holds one of the two threads every other test's async code needs.
        group.shutdownGracefully { _ in }
    }

    /// A loopback port where nothing listens: a socket bound to it and never listening, kept for the rest of the
    /// process, so a connection to it is refused and no other test (or the kernel, for an outgoing connection) can
    /// take the port meanwhile.
    public static func closedPort() -> Int {
        boundPort(keeping: true)
    }

    /// A loopback port the kernel picked as free, released again: for a child process (a proxy) that must bind a
    /// port it is told. Something else may take it meanwhile; the caller checks its child got it.
    public static func freePort() -> Int {
        boundPort(keeping: false)
    }

    private static func boundPort(keeping: Bool) -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { if !keeping { close(probe) } }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// What a server's connections share: the script, the record of requests, and the open connections for `stop()`.
final class ServerLog: Sendable {
    struct State {
        var requests: [ScriptedHTTPServer.Request] = []
        var accepted = 0
        /// Requests read whole, answered or not (a pipelining client's wait behind one being answered).
        var read = 0
        var open: [ObjectIdentifier: any Channel] = [:]
        var stopped = false
    }

    let state = NIOLockedValueBox(State())
    let choose: @Sendable (_ request: (index: Int, target: String)) -> ScriptedHTTPServer.Reply

    init(choose: @escaping @Sendable (_ request: (index: Int, target: String)) -> ScriptedHTTPServer.Reply) {
        self.choose = choose
    }

    /// Registers a new connection and returns its number; nil once the server has stopped.
    func accept(_ channel: any Channel) -> Int? {
        let id = ObjectIdentifier(channel)
        let number: Int? = state.withLockedValue { state in
            guard !state.stopped else { return nil }
            state.open[id] = channel
            state.accepted += 1
            return state.accepted - 1
        }
        if number != nil {
            channel.closeFuture.whenComplete { [self] _ in _ = state.withLockedValue { $0.open.removeValue(forKey: id) } }
        }
        return number
    }

    /// Records a request and returns its index with the reply the script chose for it.
    func record(_ request: ScriptedHTTPServer.Request) -> (index: Int, reply: ScriptedHTTPServer.Reply) {
        let index = state.withLockedValue { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        return (index, choose((index, request.target)))
    }

    func answered(_ index: Int, status: Int) { state.withLockedValue { $0.requests[index].status = status } }

    func sent(_ index: Int, bytes: Int) { state.withLockedValue { $0.requests[index].bodyBytesSent += bytes } }
}
