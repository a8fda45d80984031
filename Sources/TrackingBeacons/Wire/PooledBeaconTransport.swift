import Foundation
import NIOCore
import NIOPosix
import Networking
import Primitives

/// A beacon transport built for fire-and-forget GETs at volume, the fleet's: plain-HTTP keep-alive connections
/// pooled per host and reused across sessions, each request written straight to its channel as bytes built once
/// per host and target (no HTTP codec in the pipeline), the answer read by `BeaconResponseParser` to its head and
/// its body counted and dropped up to `HTTPBeaconTransport.maxBodyBytes`. At most `maxConnectionsPerHost` connections per host; a request beyond them
/// waits for one to come free (the dispatcher bounds requests in flight anyway, and a fleet session that queues
/// too many waits: backpressure).
///
/// What it does not speak goes through `fallback`, the full transport (async-http-client): https URLs (TLS), URLs
/// a proxy is set for, redirect targets of those kinds, and every URL when the User-Agent is not plain text (the
/// full transport checks header values; here the request's bytes are written as they are). Redirects are followed here, one hop at a time, every
/// target checked by the same `URLGate` first; the failures are classified as the full transport classifies them,
/// and no request is sent twice (a connection that dies under a request fails that request; it is never replayed).
/// Each hop's detail for a HAR is not recorded: the single-session path, which writes HARs, uses the full transport.
public final class PooledBeaconTransport: BeaconTransport, AffineTransport {
    private let userAgent: String
    private let gate: URLGate
    private let proxy: ProxySettings
    private let connectTimeout: Duration
    private let clock: ContinuousClock
    private let maxConnectionsPerHost: Int
    /// Requests one connection carries at once: 1, or more to pipeline them (`--pipeline`).
    private let pipelineDepth: Int
    private let fallback: HTTPBeaconTransport
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let pools = Locked<[HostKey: HostPool]>([:])
    /// Whether the User-Agent is plain text (visible ASCII, spaces and tabs): then requests go out as bytes from
    /// here. The other fields are vplay's (`Host` from a checked URL) and the request target passed `URLGate`.
    private let plainUserAgent: Bool
    /// Written after the User-Agent on every request (server-side mode's `X-Device-*`), already as header lines.
    private let extraHeaderLines: String
    /// Whether outcomes carry the answers' header fields (`false`: a fleet, which only counts them).
    private let keepsHeaders: Bool

    struct HostKey: Hashable, Sendable {
        var host: String
        var port: Int
    }

    /// - Parameters:
    ///   - maxConnectionsPerHost: requests in flight to one host at most (the fleet's `--beacon-concurrency`): as many
    ///     connections, or that many divided by `pipelineDepth` (rounded up) when pipelining.
    ///   - pipelineDepth: requests one connection carries at once. 1 (the default): one at a time, as devices send.
    ///     More: HTTP/1.1 pipelining, each connection's requests written one after another before their answers
    ///     (in one write when they are started together) and answered in order (RFC 9112 §9.3.2).
    ///   - keepsHeaders: whether each outcome carries its answer's header fields (a redirect's `Location` is read
    ///     either way).
    ///   - fallback: the full transport for https, proxied URLs and their redirects (the same gate and proxy).
    @_spi(LiveParts) public init(userAgent: String, connectTimeout: Duration = .seconds(5), clock: ContinuousClock, gate: URLGate = .open,
                proxy: ProxySettings = .direct, maxConnectionsPerHost: Int = 64, pipelineDepth: Int = 1, keepsHeaders: Bool = true,
                extraHeaders: [(String, String)] = [], fallback: HTTPBeaconTransport) {
        self.userAgent = userAgent
        self.gate = gate
        self.proxy = proxy
        self.connectTimeout = connectTimeout
        self.clock = clock
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.pipelineDepth = max(1, pipelineDepth)
        self.fallback = fallback
        // Plain text only (visible ASCII, spaces and tabs) is written from here; anything else goes through the full
        // transport, whose HTTP library checks it.
        let plain = { (text: String) in text.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) } }
        plainUserAgent = plain(userAgent) && extraHeaders.allSatisfy { plain($0.0) && plain($0.1) && !$0.0.contains(":") }
        extraHeaderLines = extraHeaders.map { "\($0.0): \($0.1)\r\n" }.joined()
        self.keepsHeaders = keepsHeaders
    }

    /// Sends of one pipelined request that the server closed the connection before reading.
    static let maxResends = 8

    /// The executor of the event loop the caller runs on, if any: an attempt started there stays on that thread.
    public var attemptExecutor: (any TaskExecutor)? { EventLoopTaskExecutor.current }

    /// Requests `url` once over the pool's connections and reports how it went; never throws. `timeout` bounds the
    /// whole attempt.
    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        switch begin(url, timeout: timeout) {
        case let .failure(refused): return refused.outcome
        case var .success(progress): return await run(&progress)
        }
    }

    /// Writes the request at once, without a task, when it can: called on an event loop, for a plain-HTTP URL with a
    /// free slot on a connection of that loop. `done` then gets the outcome on the loop when the answer comes
    /// (redirects and resends go on in a task); a refused URL's at once. false: nothing was started, nothing will be
    /// called; send it with `send`.
    public func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return false }
        let progress: Progress
        switch begin(url, timeout: timeout) {
        case let .failure(refused):
            done(refused.outcome)
            return true
        case let .success(begun): progress = begun
        }
        guard speaks(progress.current) else { return false }
        let pool = pool(for: progress.current)
        guard let connection = pool.slot(on: loop) else { return false }
        connection.startOnLoop(building: { writeRequest(for: progress.current, in: pool, into: &$0) }, deadline: progress.deadline) { [self, progress] answer in
            pool.release(connection, reusable: answer.reusable)
            // Read where it was captured (most answers end the attempt); copied only to go on.
            let next = next(after: answer, progress)
            if case let .done(outcome) = next {
                done(outcome)
                return
            }
            Task(executorPreference: attemptExecutor) { [progress] in
                var progress = progress
                Self.go(next, &progress)
                done(await self.run(&progress))
            }
        }
        return true
    }

    /// Where one attempt is: its URL, times, the URL to request next and the redirects so far.
    private struct Progress: Sendable {
        var url: String
        var started: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
        var current: RequestURL
        /// URLs requested so far, once a redirect is followed (empty until then: most attempts have none).
        var visited: Set<String> = []
        var redirects: [String] = []
        /// Answered `unprocessed` (pipelined behind an answer that closed the connection) this many times.
        var resent = 0
    }

    /// An attempt of `url` checked and timed from now, or the outcome of its refusal.
    private func begin(_ url: String, timeout: Duration) -> Result<Progress, RefusedOutcome> {
        let started = clock.now
        do {
            let current = try gate.check(url)
            return .success(Progress(url: url, started: started, deadline: started.advanced(by: timeout), current: current))
        } catch {
            return .failure(RefusedOutcome(TransportOutcome(status: nil, error: .refused(error), latency: started.duration(to: clock.now), bytes: 0,
                                                            requestedURL: url)))
        }
    }

    private struct RefusedOutcome: Error {
        var outcome: TransportOutcome
        init(_ outcome: TransportOutcome) { self.outcome = outcome }
    }

    /// Requests `progress.current` and each redirect target until an outcome.
    private func run(_ progress: inout Progress) async -> TransportOutcome {
        while true {
            guard speaks(progress.current) else {
                // TLS, a proxy or a User-Agent to check: the full transport takes it from here (it follows what redirects are left).
                var outcome = await fallback.send(progress.current.text, timeout: clock.now.duration(to: progress.deadline))
                outcome.latency = progress.started.duration(to: clock.now)
                outcome.requestedURL = progress.url
                outcome.redirects = progress.redirects + outcome.redirects
                outcome.hops = []
                return outcome
            }
            let answer = await exchange(progress.current, deadline: progress.deadline)
            let next = next(after: answer, progress)
            if case let .done(outcome) = next { return outcome }
            Self.go(next, &progress)
        }
    }

    /// What follows an answer to `progress.current`.
    private enum Next {
        /// The attempt's outcome.
        case done(TransportOutcome)
        /// A pipelined request the server did not process: sent again.
        case resend
        /// A redirect to follow: its target, checked.
        case redirect(RequestURL)
    }

    /// Moves `progress` on to what `next` (not `.done`) requests.
    private static func go(_ next: Next, _ progress: inout Progress) {
        switch next {
        case .done: break
        case .resend: progress.resent += 1
        case let .redirect(target):
            if progress.visited.isEmpty { progress.visited.insert(progress.current.text) }
            progress.visited.insert(target.text)
            progress.redirects.append(target.text)
            progress.current = target
        }
    }

    /// The outcome an answer to `progress.current` makes, or what to request next: a redirect to follow or a
    /// pipelined request the server did not process, to send again (`go` moves `progress` on to it).
    private func next(after answer: BeaconConnection.Answer, _ progress: Progress) -> Next {
        let url = progress.url, redirects = progress.redirects
        // Pipelined behind an answer that closed the connection: the server never read it; sent again (a few times
        // at most; each time at least the request ahead of it was answered).
        if answer.unprocessed, progress.resent < Self.maxResends, clock.now < progress.deadline {
            return .resend
        }
        // When the answer ended on its event loop, not when this task ran again (a busy pool is no slow server).
        let latency = progress.started.duration(to: answer.ended ?? clock.now)
        if let failure = answer.failure {
            return .done(TransportOutcome(status: answer.status, error: failure, latency: latency, bytes: answer.bytes,
                                          failedBeforeSending: answer.failedBeforeSending, requestedURL: url, headers: answer.headers, redirects: redirects))
        }
        guard let status = answer.status, [301, 302, 303, 307, 308].contains(status), let location = answer.location else {
            return .done(TransportOutcome(status: answer.status, error: nil, latency: latency, bytes: answer.bytes, requestedURL: url,
                                          headers: answer.headers, redirects: redirects))
        }
        let target: RequestURL
        do { target = try gate.check(location, relativeTo: progress.current.url) } catch {
            return .done(TransportOutcome(status: nil, error: .redirectRefused(target: String(location.prefix(2048)), error), latency: latency,
                                          bytes: 0, requestedURL: url, redirects: redirects))
        }
        // A cycle: the target is the first URL or one followed already (`visited` is empty until a redirect).
        guard target.text != progress.current.text, !progress.visited.contains(target.text) else {
            return .done(TransportOutcome(status: nil, error: .redirectCycle, latency: latency, bytes: 0, requestedURL: url, redirects: redirects))
        }
        guard redirects.count < GatedHTTPClient.maxRedirects else {
            return .done(TransportOutcome(status: nil, error: .tooManyRedirects, latency: latency, bytes: 0, requestedURL: url, redirects: redirects))
        }
        return .redirect(target)
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

    /// The pool of `url`'s host.
    private func pool(for url: RequestURL) -> HostPool {
        let key = HostKey(host: url.host, port: url.port)
        return pools.withLock { pools in
            if let pool = pools[key] { return pool }
            // Pipelined, the requests in flight share fewer connections: `depth` on each.
            let pool = HostPool(key: key, limit: (maxConnectionsPerHost + pipelineDepth - 1) / pipelineDepth,
                                loops: EventLoopTaskExecutor.shared.count, depth: pipelineDepth, requestTail: requestTail(for: key))
            pools[key] = pool
            return pool
        }
    }

    /// Whether `url` is requested here: plain HTTP, no proxy for it, a plain User-Agent.
    private func speaks(_ url: RequestURL) -> Bool {
        url.scheme == "http" && plainUserAgent && proxy.endpoint(for: url) == nil
    }

    /// The GET of `url` as bytes: its target, then the host's `Host` and `User-Agent` lines built once.
    private func request(for url: RequestURL, in pool: HostPool) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        writeRequest(for: url, in: pool, into: &buffer)
        return buffer
    }

    /// Writes the GET of `url` at the end of `buffer`.
    private func writeRequest(for url: RequestURL, in pool: HostPool, into buffer: inout ByteBuffer) {
        url.withRequestTargetBytes { slash, rest in
            buffer.reserveCapacity(minimumWritableBytes: 5 + rest.count + pool.requestTail.count)
            buffer.writeStaticString(slash ? "GET /" : "GET ")
            buffer.writeBytes(rest)
            buffer.writeBytes(pool.requestTail)
        }
    }

    /// What follows a request's target for a host: the version, `Host` and `User-Agent`, and the empty line.
    private func requestTail(for key: HostKey) -> [UInt8] {
        Array(" HTTP/1.1\r\nHost: \(key.port == 80 ? key.host : "\(key.host):\(key.port)")\r\nUser-Agent: \(userAgent)\r\n\(extraHeaderLines)\r\n".utf8)
    }

    /// One GET of `url` on a connection of its host's pool.
    private func exchange(_ url: RequestURL, deadline: ContinuousClock.Instant) async -> BeaconConnection.Answer {
        let pool = pool(for: url), request = request(for: url, in: pool), key = pool.key
        // On an event loop (a fleet's sessions and attempts run on them): a connection of that loop, so the request
        // is written and its answer read on this thread.
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        let connection: BeaconConnection
        let answer: BeaconConnection.Answer
        switch await pool.acquire(on: loop) {
        case let .slot(open):
            connection = open
            answer = await open.execute(request, deadline: deadline)
        case .open:
            // Connected and sent in one chain on the connection's event loop: the deadline runs there from the
            // request's start, whatever keeps this task from running meanwhile.
            do {
                (connection, answer) = try await connect(key, on: loop, pool: pool, sending: request, deadline: deadline).get()
            } catch {
                pool.failedToOpen(for: loop.map(ObjectIdentifier.init))
                let failure = HTTPBeaconTransport.classify(error)
                return BeaconConnection.Answer(failure: failure.failure, failedBeforeSending: failure.beforeSending)
            }
        }
        pool.release(connection, reusable: answer.reusable)
        return answer
    }

    /// Opens a connection to `key` on `loop` (nil: the group's next) and, on its event loop, sends `request` on it.
    private func connect(_ key: HostKey, on loop: (any EventLoop)?, pool: HostPool, sending request: ByteBuffer, deadline: ContinuousClock.Instant)
        -> EventLoopFuture<(BeaconConnection, BeaconConnection.Answer)> {
        let remaining = TimeAmount(clock.now.duration(to: deadline))
        let timeout = min(TimeAmount.nanoseconds(max(1, connectTimeout.nanoseconds)), max(.nanoseconds(1), remaining))
        let keepsHeaders = self.keepsHeaders, clock = self.clock
        return ClientBootstrap(group: loop ?? group)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(BeaconConnection.Handler(clock: clock, coalescesFlushes: pool.depth > 1,
                                                                                            keepsHeaders: keepsHeaders))
                }
            }
            .connect(host: key.host.hasPrefix("[") ? String(key.host.dropFirst().dropLast()) : key.host, port: key.port)
            .flatMap { channel in
                channel.pipeline.handler(type: BeaconConnection.Handler.self).flatMap { handler in
                    let connection = BeaconConnection(channel: channel, handler: handler)
                    let answer = channel.eventLoop.makePromise(of: BeaconConnection.Answer.self)
                    connection.startOnLoop(request, deadline: deadline) { answer.succeed($0) }
                    pool.opened(connection, for: loop.map(ObjectIdentifier.init))  // its other slots can carry requests now
                    return answer.futureResult.map { (connection, $0) }
                }
            }
    }
}
