import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Primitives

/// A beacon transport built for fire-and-forget GETs at volume, the fleet's: plain-HTTP keep-alive connections
/// pooled per host and reused across sessions, each request written straight to its channel (a request head and
/// its end; SwiftNIO's HTTP/1.1 codec), the response read to its head and its body counted and dropped up to
/// `HTTPBeaconTransport.maxBodyBytes`. At most `maxConnectionsPerHost` connections per host; a request beyond them
/// waits for one to come free (the dispatcher bounds requests in flight anyway, and a fleet session that queues
/// too many waits: backpressure).
///
/// What it does not speak goes through `fallback`, the full transport (async-http-client): https URLs (TLS), URLs
/// a proxy is set for, and redirect targets of those kinds. Redirects are followed here, one hop at a time, every
/// target checked by the same `URLGate` first; the failures are classified as the full transport classifies them,
/// and no request is sent twice (a connection that dies under a request fails that request; it is never replayed).
/// Each hop's detail for a HAR is not recorded: the single-session path, which writes HARs, uses the full transport.
public final class PooledBeaconTransport: BeaconTransport {
    private let userAgent: String
    private let gate: URLGate
    private let proxy: ProxySettings
    private let connectTimeout: Duration
    private let clock: ContinuousClock
    private let maxConnectionsPerHost: Int
    private let fallback: HTTPBeaconTransport
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let pools = Locked<[HostKey: HostPool]>([:])
    /// Whether SwiftNIO checks each request's header fields: only when the User-Agent is not plain text. The other
    /// fields are vplay's (`Host` from a checked URL), and the request target passed `URLGate`, so a fleet does
    /// not pay the check per beacon.
    private let validatesHeaders: Bool

    struct HostKey: Hashable, Sendable {
        var host: String
        var port: Int
    }

    /// - Parameters:
    ///   - maxConnectionsPerHost: connections kept open to one host at most (the fleet's `--beacon-concurrency`).
    ///   - fallback: the full transport for https, proxied URLs and their redirects (the same gate and proxy).
    public init(userAgent: String, connectTimeout: Duration = .seconds(5), clock: ContinuousClock, gate: URLGate = .open,
                proxy: ProxySettings = .direct, maxConnectionsPerHost: Int = 64, fallback: HTTPBeaconTransport) {
        self.userAgent = userAgent
        self.gate = gate
        self.proxy = proxy
        self.connectTimeout = connectTimeout
        self.clock = clock
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.fallback = fallback
        validatesHeaders = !userAgent.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let started = clock.now
        let deadline = started.advanced(by: timeout)
        let nioDeadline = NIODeadline.now() + .nanoseconds(max(0, timeout.nanoseconds))
        var current: RequestURL
        do { current = try gate.check(url) } catch {
            return TransportOutcome(status: nil, error: .refused(error), latency: started.duration(to: clock.now), bytes: 0, requestedURL: url)
        }
        var visited: Set<String> = [current.text]
        var redirects: [String] = []
        while true {
            guard current.scheme == "http", proxy.endpoint(for: current) == nil else {
                // TLS or a proxy: the full transport takes it from here (it follows what redirects are left).
                var outcome = await fallback.send(current.text, timeout: clock.now.duration(to: deadline))
                outcome.latency = started.duration(to: clock.now)
                outcome.requestedURL = url
                outcome.redirects = redirects + outcome.redirects
                outcome.hops = []
                return outcome
            }
            let answer = await exchange(current, deadline: nioDeadline)
            // When the answer ended on its event loop, not when this task ran again (a busy pool is no slow server).
            let latency = started.duration(to: answer.ended ?? clock.now)
            if let failure = answer.failure {
                return TransportOutcome(status: answer.status, error: failure, latency: latency, bytes: answer.bytes,
                                        failedBeforeSending: answer.failedBeforeSending, requestedURL: url, headers: answer.headers, redirects: redirects)
            }
            guard let status = answer.status, [301, 302, 303, 307, 308].contains(status),
                  let location = answer.headers.first(where: { $0.name.caseInsensitiveCompare("Location") == .orderedSame })?.value else {
                return TransportOutcome(status: answer.status, error: nil, latency: latency, bytes: answer.bytes, requestedURL: url,
                                        headers: answer.headers, redirects: redirects)
            }
            let next: RequestURL
            do { next = try gate.check(location, relativeTo: current.url) } catch {
                return TransportOutcome(status: nil, error: .redirectRefused(target: String(location.prefix(2048)), error), latency: latency,
                                        bytes: 0, requestedURL: url, redirects: redirects)
            }
            guard visited.insert(next.text).inserted else {
                return TransportOutcome(status: nil, error: .redirectCycle, latency: latency, bytes: 0, requestedURL: url, redirects: redirects)
            }
            guard redirects.count < GatedHTTPClient.maxRedirects else {
                return TransportOutcome(status: nil, error: .tooManyRedirects, latency: latency, bytes: 0, requestedURL: url, redirects: redirects)
            }
            redirects.append(next.text)
            current = next
        }
    }

    /// Closes every pooled connection and the fallback's; call once at the end.
    public func shutdown() async {
        let all = pools.withLock { pools in
            defer { pools.removeAll() }
            return Array(pools.values)
        }
        for pool in all { pool.closeAll() }
        await fallback.shutdown()
    }

    // MARK: - One request on a pooled connection

    /// One GET of `url` on a connection of its host's pool.
    private func exchange(_ url: RequestURL, deadline: NIODeadline) async -> BeaconConnection.Answer {
        let key = HostKey(host: url.host, port: url.port)
        let pool = pools.withLock { pools in
            if let pool = pools[key] { return pool }
            let pool = HostPool(limit: maxConnectionsPerHost)
            pools[key] = pool
            return pool
        }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.requestTarget)
        head.headers.add(name: "Host", value: url.port == 80 ? url.host : "\(url.host):\(url.port)")
        head.headers.add(name: "User-Agent", value: userAgent)
        let connection: BeaconConnection
        let answer: BeaconConnection.Answer
        switch await pool.acquire() {
        case let .idle(idle):
            connection = idle
            answer = await idle.execute(head, deadline: deadline)
        case .open:
            // Connected and sent in one chain on the connection's event loop: the deadline runs there from the
            // request's start, whatever keeps this task from running meanwhile.
            do {
                (connection, answer) = try await connect(key, sending: head, deadline: deadline).get()
            } catch {
                pool.release(nil)
                let failure = HTTPBeaconTransport.classify(error)
                return BeaconConnection.Answer(failure: failure.failure, failedBeforeSending: failure.beforeSending)
            }
        }
        pool.release(answer.reusable ? connection : nil)
        if !answer.reusable { connection.close() }
        return answer
    }

    /// Opens a connection to `key` and, on its event loop, sends `head` on it.
    private func connect(_ key: HostKey, sending head: HTTPRequestHead, deadline: NIODeadline)
        -> EventLoopFuture<(BeaconConnection, BeaconConnection.Answer)> {
        let remaining = deadline - .now()
        let timeout = min(TimeAmount.nanoseconds(max(1, connectTimeout.nanoseconds)), max(.nanoseconds(1), remaining))
        let validatesHeaders = self.validatesHeaders, clock = self.clock
        return ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(leftOverBytesStrategy: .fireError,
                                                                             enableOutboundHeaderValidation: validatesHeaders)
                    try channel.pipeline.syncOperations.addHandler(BeaconConnection.Handler(clock: clock))
                }
            }
            .connect(host: key.host.hasPrefix("[") ? String(key.host.dropFirst().dropLast()) : key.host, port: key.port)
            .flatMap { channel in
                channel.pipeline.handler(type: BeaconConnection.Handler.self).flatMap { handler in
                    let connection = BeaconConnection(channel: channel, handler: handler)
                    return connection.startOnLoop(head, deadline: deadline).map { (connection, $0) }
                }
            }
    }
}

/// One host's connections: idle ones to reuse, how many are open, and who waits for one.
final class HostPool: Sendable {
    enum Lease {
        /// An idle connection to reuse.
        case idle(BeaconConnection)
        /// Leave to open a new connection (counted already).
        case open
    }

    private struct State {
        var idle: [BeaconConnection] = []
        var open = 0
        var waiters: [CheckedContinuation<Lease, Never>] = []
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    func acquire() async -> Lease {
        if let lease = state.withLock({ Self.lease(&$0, limit: limit) }) { return lease }
        return await withCheckedContinuation { continuation in
            // Freed between the check and here: take it at once; else wait for a release.
            let handed: Lease? = state.withLock { state in
                if let lease = Self.lease(&state, limit: limit) { return lease }
                state.waiters.append(continuation)
                return nil
            }
            if let handed { continuation.resume(returning: handed) }
        }
    }

    /// An idle connection still open, or leave to open one under the limit; nil when the caller must wait.
    private static func lease(_ state: inout State, limit: Int) -> Lease? {
        while let connection = state.idle.popLast() {
            if connection.isActive { return .idle(connection) }
            state.open -= 1  // closed by the server while idle
        }
        guard state.open < limit else { return nil }
        state.open += 1
        return .open
    }

    /// Gives back a connection that can be reused, or nil for one that is gone (closed, failed, never opened).
    func release(_ connection: BeaconConnection?) {
        let (waiter, lease): (CheckedContinuation<Lease, Never>?, Lease?) = state.withLock { state in
            guard !state.waiters.isEmpty else {
                if let connection { state.idle.append(connection) } else { state.open -= 1 }
                return (nil, nil)
            }
            let waiter = state.waiters.removeFirst()
            // A waiter gets this connection, or the right to open one in its place (the count stays).
            return (waiter, connection.map { .idle($0) } ?? .open)
        }
        if let waiter, let lease { waiter.resume(returning: lease) }
    }

    func closeAll() {
        let idle = state.withLock { state in
            defer { state.idle.removeAll() }
            return state.idle
        }
        for connection in idle { connection.close() }
    }
}

/// A keep-alive HTTP/1.1 connection that carries one beacon request at a time.
final class BeaconConnection: Sendable {
    /// What one request got.
    struct Answer: Sendable {
        var status: Int?
        var headers: [HeaderField] = []
        var bytes = 0
        var failure: BeaconFailure?
        var failedBeforeSending = false
        /// Whether the connection may carry another request (a complete keep-alive response, body read).
        var reusable = false
        /// When the exchange ended, on its event loop.
        var ended: ContinuousClock.Instant?
    }

    let channel: any Channel
    let handler: Handler

    init(channel: any Channel, handler: Handler) {
        self.channel = channel
        self.handler = handler
    }

    var isActive: Bool { channel.isActive }

    func execute(_ head: HTTPRequestHead, deadline: NIODeadline) async -> Answer {
        let promise = channel.eventLoop.makePromise(of: Answer.self)
        let handler = self.handler
        channel.eventLoop.execute { handler.start(head, deadline: deadline, promise: promise) }
        // Never failed: every end of an exchange is an `Answer`.
        return (try? await promise.futureResult.get()) ?? Answer(failure: .other("the connection's event loop stopped"))
    }

    /// Starts an exchange; call it on the channel's event loop.
    func startOnLoop(_ head: HTTPRequestHead, deadline: NIODeadline) -> EventLoopFuture<Answer> {
        let promise = channel.eventLoop.makePromise(of: Answer.self)
        handler.start(head, deadline: deadline, promise: promise)
        return promise.futureResult
    }

    func close() { channel.close(promise: nil) }

    /// The channel's end of an exchange. Touched only on its channel's event loop (hence `@unchecked Sendable`:
    /// the pool hands the handler around, never calls it off the loop).
    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let clock: ContinuousClock
        private var context: ChannelHandlerContext?
        private var promise: EventLoopPromise<Answer>?
        private var answer = Answer()
        private var keepAlive = false
        private var timeout: Scheduled<Void>?

        init(clock: ContinuousClock) { self.clock = clock }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

        func start(_ head: HTTPRequestHead, deadline: NIODeadline, promise: EventLoopPromise<Answer>) {
            guard let context, context.channel.isActive else {
                promise.succeed(Answer(failure: .closedByServer))
                return
            }
            self.promise = promise
            answer = Answer()
            keepAlive = false
            timeout = context.eventLoop.scheduleTask(deadline: deadline) { [weak self] in
                guard let self else { return }
                self.finish(failure: self.answer.status == nil ? .timedOut : .bodyTimedOut)
                self.context?.close(promise: nil)
            }
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard promise != nil else { return }
            switch unwrapInboundIn(data) {
            case let .head(head):
                // 1xx answers are interim: the real one follows.
                guard head.status.code >= 200 else { return }
                answer.status = Int(head.status.code)
                answer.headers = head.headers.map { HeaderField(name: $0.name, value: $0.value) }
                keepAlive = head.isKeepAlive
            case let .body(buffer):
                answer.bytes += buffer.readableBytes
                if answer.bytes >= HTTPBeaconTransport.maxBodyBytes {
                    // Enough of it: the rest is not read, and the connection goes (its body is still coming).
                    finish(failure: nil, reusable: false)
                    context.close(promise: nil)
                }
            case .end:
                finish(failure: nil, reusable: keepAlive)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let failure = HTTPBeaconTransport.classify(error).failure
            finish(failure: answer.status == nil ? failure : .bodyFailed(BeaconFailureReason(failure)))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(failure: answer.status == nil ? .closedByServer : .bodyFailed(BeaconFailureReason(.closedByServer)))
            context.fireChannelInactive()
        }

        private func finish(failure: BeaconFailure?, reusable: Bool = false) {
            guard let promise else { return }
            self.promise = nil
            timeout?.cancel()
            timeout = nil
            var answer = self.answer
            answer.failure = failure
            answer.reusable = reusable && failure == nil
            answer.ended = clock.now
            promise.succeed(answer)
        }
    }
}
