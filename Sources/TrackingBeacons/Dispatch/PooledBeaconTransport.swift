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
    /// Requests one connection carries at once: 1, or more to pipeline them (`--pipeline`).
    private let pipelineDepth: Int
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
    ///   - maxConnectionsPerHost: requests in flight to one host at most (the fleet's `--beacon-concurrency`): as many
    ///     connections, or that many divided by `pipelineDepth` (rounded up) when pipelining.
    ///   - pipelineDepth: requests one connection carries at once. 1 (the default): one at a time, as devices send.
    ///     More: HTTP/1.1 pipelining, each connection's requests written one after another before their answers
    ///     (in one write when they are started together) and answered in order (RFC 9112 §9.3.2).
    ///   - fallback: the full transport for https, proxied URLs and their redirects (the same gate and proxy).
    public init(userAgent: String, connectTimeout: Duration = .seconds(5), clock: ContinuousClock, gate: URLGate = .open,
                proxy: ProxySettings = .direct, maxConnectionsPerHost: Int = 64, pipelineDepth: Int = 1, fallback: HTTPBeaconTransport) {
        self.userAgent = userAgent
        self.gate = gate
        self.proxy = proxy
        self.connectTimeout = connectTimeout
        self.clock = clock
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.pipelineDepth = max(1, pipelineDepth)
        self.fallback = fallback
        validatesHeaders = !userAgent.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }

    /// Sends of one pipelined request that the server closed the connection before reading.
    static let maxResends = 8

    /// The executor of the event loop the caller runs on, if any: an attempt started there stays on that thread.
    public var attemptExecutor: (any TaskExecutor)? { EventLoopTaskExecutor.current }

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
        guard progress.current.scheme == "http", proxy.endpoint(for: progress.current) == nil else { return false }
        let pool = pool(for: progress.current)
        guard let connection = pool.slot(on: loop) else { return false }
        let answer = connection.startOnLoop(head(for: progress.current), deadline: progress.nioDeadline)
        answer.whenSuccess { [self, progress] answer in
            var progress = progress
            pool.release(connection, reusable: answer.reusable)
            if !answer.reusable { connection.close() }
            if let outcome = outcome(of: answer, after: &progress) {
                done(outcome)
                return
            }
            Task(executorPreference: attemptExecutor) { [progress] in
                var progress = progress
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
        var nioDeadline: NIODeadline
        var current: RequestURL
        var visited: Set<String>
        var redirects: [String] = []
        /// Answered `unprocessed` (pipelined behind an answer that closed the connection) this many times.
        var resent = 0
    }

    /// An attempt of `url` checked and timed from now, or the outcome of its refusal.
    private func begin(_ url: String, timeout: Duration) -> Result<Progress, RefusedOutcome> {
        let started = clock.now
        do {
            let current = try gate.check(url)
            return .success(Progress(url: url, started: started, deadline: started.advanced(by: timeout),
                                     nioDeadline: NIODeadline.now() + .nanoseconds(max(0, timeout.nanoseconds)), current: current,
                                     visited: [current.text]))
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
            guard progress.current.scheme == "http", proxy.endpoint(for: progress.current) == nil else {
                // TLS or a proxy: the full transport takes it from here (it follows what redirects are left).
                var outcome = await fallback.send(progress.current.text, timeout: clock.now.duration(to: progress.deadline))
                outcome.latency = progress.started.duration(to: clock.now)
                outcome.requestedURL = progress.url
                outcome.redirects = progress.redirects + outcome.redirects
                outcome.hops = []
                return outcome
            }
            let answer = await exchange(progress.current, deadline: progress.nioDeadline)
            if let outcome = outcome(of: answer, after: &progress) { return outcome }
        }
    }

    /// The outcome an answer to `progress.current` makes, or nil when there is more to request: a redirect to
    /// follow (`progress.current` is its target) or a pipelined request the server did not process, to send again.
    private func outcome(of answer: BeaconConnection.Answer, after progress: inout Progress) -> TransportOutcome? {
        let url = progress.url, redirects = progress.redirects
        // Pipelined behind an answer that closed the connection: the server never read it; sent again (a few times
        // at most; each time at least the request ahead of it was answered).
        if answer.unprocessed, progress.resent < Self.maxResends, clock.now < progress.deadline {
            progress.resent += 1
            return nil
        }
        // When the answer ended on its event loop, not when this task ran again (a busy pool is no slow server).
        let latency = progress.started.duration(to: answer.ended ?? clock.now)
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
        do { next = try gate.check(location, relativeTo: progress.current.url) } catch {
            return TransportOutcome(status: nil, error: .redirectRefused(target: String(location.prefix(2048)), error), latency: latency,
                                    bytes: 0, requestedURL: url, redirects: redirects)
        }
        guard progress.visited.insert(next.text).inserted else {
            return TransportOutcome(status: nil, error: .redirectCycle, latency: latency, bytes: 0, requestedURL: url, redirects: redirects)
        }
        guard redirects.count < GatedHTTPClient.maxRedirects else {
            return TransportOutcome(status: nil, error: .tooManyRedirects, latency: latency, bytes: 0, requestedURL: url, redirects: redirects)
        }
        progress.redirects.append(next.text)
        progress.current = next
        return nil
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
                                loops: EventLoopTaskExecutor.shared.count, depth: pipelineDepth)
            pools[key] = pool
            return pool
        }
    }

    /// The GET of `url`: its target, `Host` and `User-Agent`.
    private func head(for url: RequestURL) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.requestTarget)
        head.headers.add(name: "Host", value: url.port == 80 ? url.host : "\(url.host):\(url.port)")
        head.headers.add(name: "User-Agent", value: userAgent)
        return head
    }

    /// One GET of `url` on a connection of its host's pool.
    private func exchange(_ url: RequestURL, deadline: NIODeadline) async -> BeaconConnection.Answer {
        let pool = pool(for: url), head = head(for: url), key = pool.key
        // On an event loop (a fleet's sessions and attempts run on them): a connection of that loop, so the request
        // is written and its answer read on this thread.
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        let connection: BeaconConnection
        let answer: BeaconConnection.Answer
        switch await pool.acquire(on: loop) {
        case let .slot(open):
            connection = open
            answer = await open.execute(head, deadline: deadline)
        case .open:
            // Connected and sent in one chain on the connection's event loop: the deadline runs there from the
            // request's start, whatever keeps this task from running meanwhile.
            do {
                (connection, answer) = try await connect(key, on: loop, pool: pool, sending: head, deadline: deadline).get()
            } catch {
                pool.failedToOpen(for: loop.map(ObjectIdentifier.init))
                let failure = HTTPBeaconTransport.classify(error)
                return BeaconConnection.Answer(failure: failure.failure, failedBeforeSending: failure.beforeSending)
            }
        }
        pool.release(connection, reusable: answer.reusable)
        if !answer.reusable { connection.close() }
        return answer
    }

    /// Opens a connection to `key` on `loop` (nil: the group's next) and, on its event loop, sends `head` on it.
    private func connect(_ key: HostKey, on loop: (any EventLoop)?, pool: HostPool, sending head: HTTPRequestHead, deadline: NIODeadline)
        -> EventLoopFuture<(BeaconConnection, BeaconConnection.Answer)> {
        let remaining = deadline - .now()
        let timeout = min(TimeAmount.nanoseconds(max(1, connectTimeout.nanoseconds)), max(.nanoseconds(1), remaining))
        let validatesHeaders = self.validatesHeaders, clock = self.clock
        return ClientBootstrap(group: loop ?? group)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(leftOverBytesStrategy: .fireError,
                                                                             enableOutboundHeaderValidation: validatesHeaders)
                    try channel.pipeline.syncOperations.addHandler(BeaconConnection.Handler(clock: clock, coalescesFlushes: pool.depth > 1))
                }
            }
            .connect(host: key.host.hasPrefix("[") ? String(key.host.dropFirst().dropLast()) : key.host, port: key.port)
            .flatMap { channel in
                channel.pipeline.handler(type: BeaconConnection.Handler.self).flatMap { handler in
                    let connection = BeaconConnection(channel: channel, handler: handler)
                    let answer = connection.startOnLoop(head, deadline: deadline)
                    pool.opened(connection, for: loop.map(ObjectIdentifier.init))  // its other slots can carry requests now
                    return answer.map { (connection, $0) }
                }
            }
    }
}

/// One host's connections and their free request slots. A connection carries up to `depth` requests at once
/// (pipelined when more than one); each free slot is an entry in `slots`, kept by the connection's event loop.
final class HostPool: Sendable {
    enum Lease {
        /// A slot on an open connection.
        case slot(BeaconConnection)
        /// Leave to open a new connection (counted already); its other `depth - 1` slots go to the pool once open.
        case open
    }

    private struct State {
        /// Free slots by event loop identity; a connection is listed once per free slot.
        var slots: [ObjectIdentifier: [BeaconConnection]] = [:]
        /// Open connections not yet retired, each with the event loop it was opened for (nil: off any loop).
        var live: [ObjectIdentifier: ObjectIdentifier?] = [:]
        /// Connections being opened.
        var opening = 0
        /// Connections opened or being opened for requests made on each event loop, against `perLoopLimit`.
        var perLoop: [ObjectIdentifier: Int] = [:]
        var waiters: [(loop: ObjectIdentifier?, continuation: CheckedContinuation<Lease, Never>)] = []
        var open: Int { opening + live.count }

        /// Counts a connection being opened for a request made on `loop`.
        mutating func opening(for loop: ObjectIdentifier?) {
            opening += 1
            if let loop { perLoop[loop, default: 0] += 1 }
        }
    }

    let key: PooledBeaconTransport.HostKey
    private let limit: Int
    /// Connections opened for the requests of one event loop at most: its share of `limit`, so that each loop
    /// (with its share of the requests in flight, a fleet's) has connections of its own to start them on.
    private let perLoopLimit: Int
    let depth: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - limit: connections open at once at most.
    ///   - loops: event loops the requests come from (each may open `limit / loops` of them, rounded up).
    ///   - depth: requests one connection carries at once (1: no pipelining).
    init(key: PooledBeaconTransport.HostKey, limit: Int, loops: Int = 1, depth: Int = 1) {
        self.key = key
        self.limit = limit
        perLoopLimit = (limit + max(1, loops) - 1) / max(1, loops)
        self.depth = max(1, depth)
    }

    /// A slot for a request made on `loop`: one on that loop first, then a new connection while under the limit, then
    /// one on another loop, else the next one freed. Off any event loop (nil): a free slot anywhere, else a new
    /// connection, else the next one freed.
    func acquire(on loop: (any EventLoop)?) async -> Lease {
        let key = loop.map(ObjectIdentifier.init)
        if let lease = state.withLock({ lease(&$0, loop: key) }) { return lease }
        return await withCheckedContinuation { continuation in
            // Freed between the check and here: take it at once; else wait for a release.
            let handed: Lease? = state.withLock { state in
                if let lease = lease(&state, loop: key) { return lease }
                state.waiters.append((key, continuation))
                return nil
            }
            if let handed { continuation.resume(returning: handed) }
        }
    }

    /// Requests waiting for a slot now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// A free slot on a connection of `loop`, if there is one now (nothing else: no opening, no waiting).
    func slot(on loop: any EventLoop) -> BeaconConnection? {
        state.withLock { Self.popSlot(&$0, loop: ObjectIdentifier(loop)) }
    }

    /// A slot as `acquire` ranks them; nil when the caller must wait.
    private func lease(_ state: inout State, loop: ObjectIdentifier?) -> Lease? {
        if let loop, let connection = Self.popSlot(&state, loop: loop) { return .slot(connection) }
        // Off any loop, every loop's slots are as near.
        if loop == nil {
            for other in state.slots.keys {
                if let connection = Self.popSlot(&state, loop: other) { return .slot(connection) }
            }
        }
        if state.open < limit, loop.map({ state.perLoop[$0, default: 0] < perLoopLimit }) ?? true {
            state.opening(for: loop)
            return .open
        }
        for other in state.slots.keys where other != loop {
            if let connection = Self.popSlot(&state, loop: other) { return .slot(connection) }
        }
        return nil
    }

    /// A free slot on `loop` of a connection still open; slots of connections closed meanwhile are dropped (and the
    /// connection retired).
    private static func popSlot(_ state: inout State, loop: ObjectIdentifier) -> BeaconConnection? {
        while let connection = state.slots[loop]?.popLast() {
            if state.live.index(forKey: ObjectIdentifier(connection)) != nil {
                if connection.isActive { return connection }
                retire(&state, connection)
            }
        }
        return nil
    }

    /// Takes a connection out of the pool's count, once.
    private static func retire(_ state: inout State, _ connection: BeaconConnection) {
        guard let loop = state.live.removeValue(forKey: ObjectIdentifier(connection)) else { return }
        if let loop { state.perLoop[loop, default: 1] -= 1 }
    }

    /// A connection from an `.open` lease made on `loop` is open, its first request sent: its other slots go to
    /// waiters, then to the pool.
    func opened(_ connection: BeaconConnection, for loop: ObjectIdentifier?) {
        let handed: [CheckedContinuation<Lease, Never>] = state.withLock { state in
            state.opening -= 1
            state.live[ObjectIdentifier(connection)] = .some(loop)
            let spare = depth - 1
            let handed = state.waiters.prefix(spare).map(\.continuation)
            state.waiters.removeFirst(handed.count)
            let key = ObjectIdentifier(connection.channel.eventLoop)
            for _ in handed.count..<spare { state.slots[key, default: []].append(connection) }
            return handed
        }
        for waiter in handed { waiter.resume(returning: .slot(connection)) }
    }

    /// An `.open` lease made on `loop` that did not get its connection: the count goes back, and a waiter may try in
    /// its place.
    func failedToOpen(for loop: ObjectIdentifier?) {
        let waiter: CheckedContinuation<Lease, Never>? = state.withLock { state in
            state.opening -= 1
            if let loop { state.perLoop[loop, default: 1] -= 1 }
            guard !state.waiters.isEmpty else { return nil }
            let waiter = state.waiters.removeFirst()
            state.opening(for: waiter.loop)
            return waiter.continuation
        }
        waiter?.resume(returning: .open)
    }

    /// A request's slot on `connection` is free again. `reusable` false: the connection is gone (closed, failed);
    /// it is retired, and a waiter may open one in its place.
    func release(_ connection: BeaconConnection, reusable: Bool) {
        let (waiter, lease): (CheckedContinuation<Lease, Never>?, Lease?) = state.withLock { state in
            let id = ObjectIdentifier(connection)
            if reusable, state.live.index(forKey: id) != nil {
                guard !state.waiters.isEmpty else {
                    state.slots[ObjectIdentifier(connection.channel.eventLoop), default: []].append(connection)
                    return (nil, nil)
                }
                return (state.waiters.removeFirst().continuation, .slot(connection))
            }
            // Retired once, whatever number of its requests end after.
            guard state.live.index(forKey: id) != nil else { return (nil, nil) }
            Self.retire(&state, connection)
            guard !state.waiters.isEmpty else { return (nil, nil) }
            let waiter = state.waiters.removeFirst()
            state.opening(for: waiter.loop)
            return (waiter.continuation, .open)
        }
        if let waiter, let lease { waiter.resume(returning: lease) }
    }

    func closeAll() {
        let open = state.withLock { state in
            defer { state.slots.removeAll() }
            var seen: Set<ObjectIdentifier> = []
            return state.slots.values.joined().filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        for connection in open { connection.close() }
    }
}

/// A keep-alive HTTP/1.1 connection that carries beacon requests: one at a time, or up to the pool's depth
/// pipelined (written one after another, answered in order).
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
        /// A pipelined request the server did not process: an earlier answer on the connection closed it
        /// (`Connection: close`), so the server read no further (RFC 9112 §9.6). Safe to send again.
        var unprocessed = false
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
        if channel.eventLoop.inEventLoop {
            handler.start(head, deadline: deadline, promise: promise)
        } else {
            channel.eventLoop.execute { handler.start(head, deadline: deadline, promise: promise) }
        }
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

    /// The channel's end of its exchanges, in the order they were written. Touched only on its channel's event loop
    /// (hence `@unchecked Sendable`: the pool hands the handler around, never calls it off the loop).
    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private struct Exchange {
            var promise: EventLoopPromise<Answer>
            var deadline: NIODeadline
            var answer = Answer()
            var keepAlive = false
        }

        private let clock: ContinuousClock
        /// Whether writes wait for one flush at the end of what the loop is running (pipelining: the requests
        /// started meanwhile leave in one write).
        private let coalescesFlushes: Bool
        private var context: ChannelHandlerContext?
        /// Written and not yet answered, oldest first: the next response is the first's.
        private var exchanges = CircularBuffer<Exchange>()
        private var flushPending = false
        /// One timer for the connection, due at or before the earliest deadline of the exchanges waiting. It is not
        /// cancelled when they end (a request's answer takes microseconds, its timeout seconds): when it fires, it
        /// times out what is past its deadline and is set again for the earliest left.
        private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?
        /// Why the connection is being closed by this side, for the requests still waiting on it.
        private var closing: BeaconFailure?

        init(clock: ContinuousClock, coalescesFlushes: Bool = false) {
            self.clock = clock
            self.coalescesFlushes = coalescesFlushes
        }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

        func start(_ head: HTTPRequestHead, deadline: NIODeadline, promise: EventLoopPromise<Answer>) {
            guard let context, context.channel.isActive, closing == nil else {
                // Closed, or closing, before anything was written: the server never saw it, so it is sent again.
                promise.succeed(Answer(failure: .closedByServer, failedBeforeSending: true, unprocessed: true))
                return
            }
            exchanges.append(Exchange(promise: promise, deadline: deadline))
            if timer.map({ deadline < $0.deadline }) ?? true { setTimer(deadline, on: context.eventLoop) }
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            guard coalescesFlushes else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            if !flushPending {
                flushPending = true
                context.eventLoop.execute { [self] in
                    flushPending = false
                    self.context?.flush()
                }
            }
        }

        private func setTimer(_ deadline: NIODeadline, on loop: any EventLoop) {
            timer?.task.cancel()
            timer = (deadline, loop.scheduleTask(deadline: deadline) { [weak self] in self?.timerFired() })
        }

        /// Times out every exchange past its deadline; sets the timer again for the earliest one left.
        private func timerFired() {
            timer = nil
            let now = NIODeadline.now()
            guard let index = exchanges.firstIndex(where: { $0.deadline <= now }) else {
                if let earliest = exchanges.lazy.map(\.deadline).min(), let loop = context?.eventLoop { setTimer(earliest, on: loop) }
                return
            }
            timedOut(at: index)
        }

        /// An exchange ran past its deadline: it fails, and the connection goes (a request cannot be taken back;
        /// the ones pipelined with it fail too, they may have reached the server).
        private func timedOut(at index: CircularBuffer<Exchange>.Index) {
            let failure: BeaconFailure = index == exchanges.startIndex && exchanges[index].answer.status != nil ? .bodyTimedOut : .timedOut
            // Set before any answer is handed out: its caller may close the connection at once.
            closing = .other("connection closed: a request pipelined before this one timed out")
            complete(exchanges.remove(at: index), failure: failure)
            context?.close(promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !exchanges.isEmpty else { return }
            switch unwrapInboundIn(data) {
            case let .head(head):
                // 1xx answers are interim: the real one follows.
                guard head.status.code >= 200 else { return }
                exchanges[exchanges.startIndex].answer.status = Int(head.status.code)
                exchanges[exchanges.startIndex].answer.headers = head.headers.map { HeaderField(name: $0.name, value: $0.value) }
                exchanges[exchanges.startIndex].keepAlive = head.isKeepAlive
            case let .body(buffer):
                exchanges[exchanges.startIndex].answer.bytes += buffer.readableBytes
                if exchanges[exchanges.startIndex].answer.bytes >= HTTPBeaconTransport.maxBodyBytes {
                    // Enough of it: the rest is not read, and the connection goes (its body is still coming).
                    closing = .other("connection closed: the answer to a request pipelined before this one was too long")
                    complete(exchanges.removeFirst(), failure: nil, reusable: false)
                    context.close(promise: nil)
                }
            case .end:
                let exchange = exchanges.removeFirst()
                var unprocessed: [Exchange] = []
                if !exchange.keepAlive {
                    // The server closes after this answer and reads no further: the rest were not processed. All of
                    // this before any answer is handed out (its caller may close the connection at once).
                    closing = .closedByServer
                    while !exchanges.isEmpty {
                        var next = exchanges.removeFirst()
                        next.answer.unprocessed = true
                        unprocessed.append(next)
                    }
                }
                complete(exchange, failure: nil, reusable: exchange.keepAlive)
                for next in unprocessed { complete(next, failure: .closedByServer) }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let failure = HTTPBeaconTransport.classify(error).failure
            closing = closing ?? failure
            failAll(first: failure, rest: failure)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            timer?.task.cancel()
            timer = nil
            failAll(first: closing ?? .closedByServer, rest: closing ?? .closedByServer)
            context.fireChannelInactive()
        }

        /// Every exchange waiting fails: the first (whose answer may have begun) with `first`, the others with `rest`.
        /// Taken off the queue before any is handed out (a caller may close the connection at once, which comes back
        /// here).
        private func failAll(first: BeaconFailure, rest: BeaconFailure) {
            let waiting = exchanges
            exchanges.removeAll()
            for (position, exchange) in waiting.enumerated() {
                let failure = position == 0 ? first : rest
                complete(exchange, failure: exchange.answer.status == nil ? failure : .bodyFailed(BeaconFailureReason(failure)))
            }
        }

        private func complete(_ exchange: Exchange, failure: BeaconFailure?, reusable: Bool = false) {
            var answer = exchange.answer
            answer.failure = failure
            answer.reusable = reusable && failure == nil
            answer.ended = clock.now
            exchange.promise.succeed(answer)
        }
    }
}
