import NIOCore
import Networking

/// A keep-alive HTTP/1.1 connection that carries beacon requests: one at a time, or up to the pool's depth
/// pipelined (written one after another, answered in order). No HTTP codec in its pipeline: each request is its
/// bytes, built once (`PooledBeaconTransport.request(for:in:)`), and the answers are read by
/// `BeaconResponseParser`.
final class BeaconConnection: PooledConnection {
    /// What one request got.
    struct Answer: Sendable {
        var status: Int?
        var headers: [HeaderField] = []
        /// A redirect's target, read even when the headers are not kept.
        var location: String?
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

    /// Called once with an exchange's answer, on the connection's event loop.
    typealias Completion = @Sendable (Answer) -> Void

    let channel: any Channel
    let handler: Handler
    /// Its pool's record of it (`HostPoolMachine`).
    let membership = PoolMembership()

    init(channel: any Channel, handler: Handler) {
        self.channel = channel
        self.handler = handler
    }

    var isActive: Bool { channel.isActive }
    var eventLoopID: ObjectIdentifier { ObjectIdentifier(channel.eventLoop) }

    func execute(_ request: ByteBuffer, deadline: ContinuousClock.Instant) async -> Answer {
        let handler = self.handler, loop = channel.eventLoop
        return await withCheckedContinuation { continuation in
            let done: Completion = { continuation.resume(returning: $0) }
            if loop.inEventLoop {
                handler.start(request, deadline: deadline, done: done)
            } else {
                loop.execute { handler.start(request, deadline: deadline, done: done) }
            }
        }
    }

    /// Starts an exchange; call it on the channel's event loop. `done` gets its answer there.
    func startOnLoop(_ request: ByteBuffer, deadline: ContinuousClock.Instant, done: @escaping Completion) {
        handler.start(request, deadline: deadline, done: done)
    }

    /// Starts an exchange whose request `build` writes (into the connection's own buffer, reused from one request to
    /// the next); call it on the channel's event loop. `done` gets its answer there.
    func startOnLoop(building build: (inout ByteBuffer) -> Void, deadline: ContinuousClock.Instant, done: @escaping Completion) {
        handler.start(building: build, deadline: deadline, done: done)
    }

    func close() { channel.close(promise: nil) }

    /// The channel's end of its exchanges, in the order they were written. Touched only on its channel's event loop
    /// (hence `@unchecked Sendable`: the pool hands the handler around, never calls it off the loop).
    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        /// A request written and not answered yet. Small: its answer, read only for the first, is `headAnswer` (an
        /// exchange carrying one was copied into the queue and out of it for every request).
        private struct Exchange {
            var done: Completion
            var deadline: ContinuousClock.Instant
            /// Not processed by the server (`lastAnswer`): its answer says so.
            var unprocessed = false
        }

        private let clock: ContinuousClock
        /// Whether writes wait for one flush at the end of what the loop is running (pipelining: the requests
        /// started meanwhile leave in one write).
        private let coalescesFlushes: Bool
        private var context: ChannelHandlerContext?
        private var parser: BeaconResponseParser
        /// Written and not yet answered, oldest first: the next response is the first's.
        private var exchanges = CircularBuffer<Exchange>()
        /// The first exchange's answer as it is read (its head, its body's bytes so far), and whether it lets the
        /// connection carry another; made fresh when the first exchange is handed its answer (`takeHeadAnswer`).
        private var headAnswer = Answer()
        private var headKeepAlive = false
        private var flushPending = false
        /// One timer for the connection, due at or before the earliest deadline of the exchanges waiting. It is not
        /// cancelled when they end (a request's answer takes microseconds, its timeout seconds): when it fires, it
        /// times out what is past its deadline and is set again for the earliest left. Deadlines are instants of the
        /// transport's clock; the event loop is only told how long to wait.
        private var timer: (deadline: ContinuousClock.Instant, task: Scheduled<Void>)?
        /// Why the connection is being closed by this side, for the requests still waiting on it.
        private var closing: BeaconFailure?
        /// The last request's bytes, kept for the next one's: once the channel has written them it holds them no
        /// more, and the next request is written in the same storage (a new one is allocated only when the channel
        /// still holds it: a write not done yet, pipelined requests waiting for their flush).
        private var requestBuffer: ByteBuffer?

        /// - Parameter keepsHeaders: whether answers carry their header fields (a fleet that only counts them
        ///   does not read them).
        init(clock: ContinuousClock, coalescesFlushes: Bool = false, keepsHeaders: Bool = true) {
            self.clock = clock
            self.coalescesFlushes = coalescesFlushes
            parser = BeaconResponseParser(keepsHeaders: keepsHeaders)
        }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

        func start(building build: (inout ByteBuffer) -> Void, deadline: ContinuousClock.Instant, done: @escaping Completion) {
            guard var buffer = requestBuffer.take() ?? context?.channel.allocator.buffer(capacity: 256) else {
                return start(ByteBuffer(), deadline: deadline, done: done)  // no context: closed, answered as such
            }
            buffer.clear()
            build(&buffer)
            requestBuffer = buffer
            start(buffer, deadline: deadline, done: done)
        }

        func start(_ request: ByteBuffer, deadline: ContinuousClock.Instant, done: @escaping Completion) {
            guard let context, context.channel.isActive, closing == nil else {
                // Closed, or closing, before anything was written: the server never saw it, so it is sent again.
                done(Answer(failure: .closedByServer, failedBeforeSending: true, ended: clock.now, unprocessed: true))
                return
            }
            exchanges.append(Exchange(done: done, deadline: deadline))
            if timer.map({ deadline < $0.deadline }) ?? true { setTimer(deadline, on: context.eventLoop) }
            guard coalescesFlushes else {
                context.writeAndFlush(wrapOutboundOut(request), promise: nil)
                return
            }
            context.write(wrapOutboundOut(request), promise: nil)
            if !flushPending {
                flushPending = true
                context.eventLoop.execute { [self] in
                    flushPending = false
                    self.context?.flush()
                }
            }
        }

        private func setTimer(_ deadline: ContinuousClock.Instant, on loop: any EventLoop) {
            timer?.task.cancel()
            let wait = TimeAmount(max(.zero, clock.now.duration(to: deadline)))
            timer = (deadline, loop.scheduleTask(in: wait) { [weak self] in self?.timerFired() })
        }

        /// Times out every exchange past its deadline; sets the timer again for the earliest one left.
        private func timerFired() {
            timer = nil
            let now = clock.now
            guard let index = exchanges.firstIndex(where: { $0.deadline <= now }) else {
                if let earliest = exchanges.lazy.map(\.deadline).min(), let loop = context?.eventLoop { setTimer(earliest, on: loop) }
                return
            }
            timedOut(at: index)
        }

        /// An exchange ran past its deadline: it fails, and the connection goes (a request cannot be taken back;
        /// the ones pipelined with it fail too, they may have reached the server).
        private func timedOut(at index: CircularBuffer<Exchange>.Index) {
            let first = index == exchanges.startIndex
            let failure: BeaconFailure = first && headAnswer.status != nil ? .bodyTimedOut : .timedOut
            // Set before any answer is handed out: its caller may close the connection at once.
            closing = .other("connection closed: a request pipelined before this one timed out")
            let answer = first ? takeHeadAnswer() : Answer()
            complete(exchanges.remove(at: index), answer, failure: failure)
            context?.close(promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard closing == nil else { return }
            guard !exchanges.isEmpty else { return unasked(context) }
            // Parsed on a copy: an answer handed out may close the connection at once, and its `channelInactive`
            // reads the parser (`closing` is set by then, so the copy's state is not needed there).
            var parser = self.parser
            defer { self.parser = parser }
            do {
                try parser.parse(unwrapInboundIn(data)) { event in handle(event, context: context) }
            } catch {
                closing = .other(error.description)
                failAll(first: .other(error.description), rest: .other("connection closed: \(error.description) (an answer before this one)"))
                context.close(promise: nil)
            }
        }

        /// One event of the parser; false when the connection is done (closing).
        private func handle(_ event: BeaconResponseParser.Event, context: ChannelHandlerContext) -> Bool {
            guard !exchanges.isEmpty else {
                unasked(context)
                return false
            }
            switch event {
            case let .head(head):
                headAnswer.status = head.status
                headAnswer.headers = head.headers
                headAnswer.location = head.location
                headKeepAlive = head.keepAlive
            case let .body(count):
                headAnswer.bytes += count
                if headAnswer.bytes >= HTTPBeaconTransport.maxBodyBytes {
                    // Enough of it: the rest is not read, and the connection goes (its body is still coming).
                    closing = .other("connection closed: the answer to a request pipelined before this one was too long")
                    complete(exchanges.removeFirst(), takeHeadAnswer(), failure: nil, reusable: false)
                    context.close(promise: nil)
                    return false
                }
            case .end:
                let exchange = exchanges.removeFirst()
                guard headKeepAlive else {
                    lastAnswer(exchange)
                    return false
                }
                complete(exchange, takeHeadAnswer(), failure: nil, reusable: true)
                return closing == nil
            }
            return true
        }

        /// Bytes no request asked for (an idle connection's `408`, say, or an answer more): what follows cannot be
        /// trusted, and the connection goes.
        private func unasked(_ context: ChannelHandlerContext) {
            closing = .closedByServer
            context.close(promise: nil)
        }

        /// `exchange`'s answer is the last the connection carries (`Connection: close`, or a body that ends with the
        /// connection): the server reads no further, so the requests pipelined behind it were not processed (RFC
        /// 9112 §9.6) and fail as such, to be sent again. All of it settled before any answer is handed out: its
        /// caller may close the connection at once, which comes back to `channelInactive`.
        private func lastAnswer(_ exchange: Exchange) {
            closing = .closedByServer
            for index in exchanges.indices { exchanges[index].unprocessed = true }
            complete(exchange, takeHeadAnswer(), failure: nil, reusable: false)
            failAll(first: .closedByServer, rest: .closedByServer)
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
            // An answer with no length ends with the connection: complete, not failed, and the last one.
            if parser.endsAtClose, closing == nil, !exchanges.isEmpty { lastAnswer(exchanges.removeFirst()) }
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
                // The first's answer may have begun (its head read); the others' have not.
                let answer = position == 0 ? takeHeadAnswer() : Answer()
                complete(exchange, answer, failure: answer.status == nil ? failure : .bodyFailed(BeaconFailureReason(failure)))
            }
        }

        /// The first exchange's answer as read so far; a fresh one is begun for the next.
        private func takeHeadAnswer() -> Answer {
            defer { (headAnswer, headKeepAlive) = (Answer(), false) }
            return headAnswer
        }

        private func complete(_ exchange: Exchange, _ answer: Answer, failure: BeaconFailure?, reusable: Bool = false) {
            var answer = answer
            answer.unprocessed = answer.unprocessed || exchange.unprocessed
            answer.failure = failure
            answer.reusable = reusable && failure == nil
            answer.ended = clock.now
            exchange.done(answer)
        }
    }
}
