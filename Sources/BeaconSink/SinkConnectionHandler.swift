#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// Serves one TCP connection, after NIO's HTTP/1.1 decoder and pipelining handler: records each complete
/// request, then answers it as the recorder decided (pixel, fault, 405, 413), or answers the built-in
/// `/__vplay/hits` page. Runs on the connection's event loop only.
///
/// The pipelining handler before this one holds later requests back until the current answer's `.end`
/// is written, so at most one request is in progress here and a delayed or hung answer stalls the
/// connection exactly as a slow real server would.
final class SinkConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Path of the built-in page that lists the hits as JSON; never recorded as a hit.
    static let hitsPath = "/__vplay/hits"

    private enum State {
        /// Waiting for a request head.
        case idle
        /// Reading a request's body; `bodyBytes` counted so far, none kept.
        case receiving(HTTPRequestHead, bodyBytes: Int)
        /// Answered early (413) and closing; the rest of the request is ignored.
        case discarding
        /// A delayed answer is scheduled.
        case delaying
        /// An answer's body is being streamed (a media file, or a paced body).
        case sending(SinkBodySender)
        /// Hung on purpose: nothing more is read or answered.
        case hung
        /// Closed or closing.
        case closed
    }

    private static let pixel = ByteBuffer(bytes: TrackingPixel.bytes)

    private let recorder: SinkRecorder
    private let media: SinkMediaLibrary?
    private let documents: [String: SinkDocument]
    private let connection: Int
    private var state = State.idle
    private var scheduledAnswer: Scheduled<Void>?
    private var needsFlush = false
    /// The client shut its sending side (TCP half-close): answer what is in progress, then close.
    private var inputClosed = false

    init(recorder: SinkRecorder, media: SinkMediaLibrary?, documents: [String: SinkDocument] = [:], connection: Int) {
        self.recorder = recorder
        self.media = media
        self.documents = documents
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard case .idle = state else { return }
            state = .receiving(head, bodyBytes: 0)
        case .body(let buffer):
            guard case .receiving(let head, let counted) = state else { return }
            let total = counted + buffer.readableBytes
            guard total <= SinkLimits.maximumBodyBytes else {
                state = .discarding
                _ = recorder.record(request(from: head), forced: .contentTooLarge)
                answer(.contentTooLarge, to: head, context: context, flushNow: true)
                return
            }
            state = .receiving(head, bodyBytes: total)
        case .end:
            guard case .receiving(let head, _) = state else { return }
            handle(head, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// A client that half-closes after its last request (`printf … | nc`) still gets its answers: the
    /// connection closes once nothing is in progress. A hung answer stays hung until the sink stops.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? ChannelEvent, case .inputClosed = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        inputClosed = true
        switch state {
        case .idle, .receiving:
            state = .closed
            needsFlush = false
            context.flush()
            // Closing the output first waits for unsent answers, then the full close frees the socket.
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.close(mode: .output, promise: promise)
            closeAfter(promise.futureResult, channel: context.channel)
        case .discarding, .delaying, .sending, .hung, .closed:
            break
        }
    }

    /// A streamed body waits for the channel to drain below its high-water mark, then goes on.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .sending(let sender) = state, context.channel.isWritable {
            sender.pump()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .sending(let sender) = state { sender.cancel() }
        state = .closed
        scheduledAnswer?.cancel()
        scheduledAnswer = nil
        context.fireChannelInactive()
    }

    /// Malformed HTTP (or a head past ``SinkLimits/maximumHeadBytes``) gets 400 (431) if no answer is in
    /// progress, then the connection closes; any other error closes it at once.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let canAnswer: Bool
        switch state {
        case .idle, .receiving: canAnswer = true
        case .discarding, .delaying, .hung, .closed: canAnswer = false
        case .sending(let sender):
            sender.cancel()
            canAnswer = false
        }
        state = .closed
        scheduledAnswer?.cancel()
        guard let parserError = error as? HTTPParserError, canAnswer else {
            context.close(promise: nil)
            return
        }
        let status: HTTPResponseStatus
        if case .headerOverflow = parserError {
            status = .requestHeaderFieldsTooLarge
        } else {
            status = .badRequest
        }
        let headers = HTTPHeaders([("Content-Length", "0"), ("Connection", "close")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), channel: context.channel)
    }

    // MARK: - Answering

    private func handle(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if head.method == .GET || head.method == .HEAD, Self.path(of: head.uri) == Self.hitsPath {
            state = .idle
            answerHitsPage(to: head, context: context)
            return
        }
        let path = Self.path(of: head.uri)
        if head.method == .GET || head.method == .HEAD, let document = documents[String(path)] {
            state = .idle
            answerUnrecorded(document.body, contentType: document.contentType, to: head, context: context)
            return
        }
        var lookup: SinkMediaLookup?
        if let media, head.method == .GET || head.method == .HEAD, path.hasPrefix(SinkMediaLibrary.prefix) {
            lookup = media.lookup(
                encodedPath: path.dropFirst(SinkMediaLibrary.prefix.count),
                range: head.headers.first(name: "range")
            )
        }
        let (_, answer, faultDelay, shaping) = recorder.record(request(from: head), content: lookup?.answer)
        let file: SinkMediaFile?
        if case .file(let opened, _) = lookup, case .media = answer {
            file = opened
        } else {
            // A fault answered instead of the file: it is not sent.
            if case .file(let opened, _) = lookup { opened.close() }
            file = nil
        }
        // A ttfb fault holds the head like a delay fault; both together add up.
        let delay = faultDelay == nil && shaping.ttfb == nil ? nil : (faultDelay ?? .zero) + (shaping.ttfb ?? .zero)
        if let delay {
            state = .delaying
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            let boundContext = context.loopBound
            let boundFile = NIOLoopBound(file, eventLoop: context.eventLoop)
            scheduledAnswer = context.eventLoop.scheduleTask(in: TimeAmount(delay)) {
                let handler = handler.value
                guard case .delaying = handler.state else { return }
                handler.scheduledAnswer = nil
                handler.state = .idle
                handler.answer(answer, to: head, context: boundContext.value, flushNow: true, shaping: shaping, file: boundFile.value)
            }
            return
        }
        switch answer {
        case .hang:
            state = .hung
        case .stall:
            state = .hung
            stall(head, context: context)
        case .reset:
            state = .closed
            Self.reset(context.channel)
        default:
            state = .idle
            self.answer(answer, to: head, context: context, flushNow: false, shaping: shaping, file: file)
        }
    }

    /// Writes `answer` for the request `head`. Keep-alive follows the request (HTTP/1.1 default, or
    /// `Connection: keep-alive` on 1.0) unless the answer is a 413. Answers made while reading are flushed
    /// together at the end of the read (`flushNow` false), so a pipelined burst costs one `writev`.
    ///
    /// A media file's body, and any body a `rate` or timed `stall` fault paces, is streamed by a
    /// ``SinkBodySender`` instead (flushed at once); `file` is the open file of a ``SinkAnswer/media(_:)``
    /// answer, closed here when nothing is to be read from it.
    private func answer(
        _ answer: SinkAnswer,
        to head: HTTPRequestHead,
        context: ChannelHandlerContext,
        flushNow: Bool,
        shaping: SinkShaping = SinkShaping(),
        file: SinkMediaFile? = nil
    ) {
        guard let code = answer.status else { return }
        let keepAlive = head.isKeepAlive && answer != .contentTooLarge && !inputClosed
        var headers = HTTPHeaders()
        var body: [ByteBuffer] = []
        var source: SinkBodySource?
        switch answer {
        case .pixel:
            headers.add(name: "Content-Type", value: TrackingPixel.contentType)
            headers.add(name: "Content-Length", value: String(TrackingPixel.bytes.count))
            body = [Self.pixel]
            source = .bytes(Self.pixel)
        case .body(let bytes):
            headers.add(name: "Content-Type", value: "application/octet-stream")
            headers.add(name: "Content-Length", value: String(bytes))
            if shaping.pacesBody {
                source = .zeros(bytes)
            } else {
                body = Self.zeroBody(bytes: bytes, allocator: context.channel.allocator)
            }
        case .media(let media):
            headers.add(name: "Content-Type", value: media.contentType)
            headers.add(name: "Content-Length", value: String(media.length))
            headers.add(name: "Accept-Ranges", value: "bytes")
            headers.add(name: "X-Content-Type-Options", value: "nosniff")
            if media.status == 206 {
                headers.add(name: "Content-Range", value: "bytes \(media.start)-\(media.start + media.length - 1)/\(media.fileSize)")
            }
            if let file {
                source = .file(file, start: media.start, length: media.length, size: media.fileSize)
            }
        case .rangeNotSatisfiable(let size):
            headers.add(name: "Content-Range", value: "bytes */\(size)")
            headers.add(name: "Accept-Ranges", value: "bytes")
            headers.add(name: "Content-Length", value: "0")
        case .methodNotAllowed:
            headers.add(name: "Allow", value: "GET, HEAD")
            headers.add(name: "Content-Length", value: "0")
        case .status, .contentTooLarge, .reset, .hang, .stall:
            headers.add(name: "Content-Length", value: "0")
        }
        headers.add(name: "Cache-Control", value: "no-store")
        if let source, head.method != .HEAD, shaping.pacesBody || file != nil {
            writeStreamed(status: code, headers: headers, source: source, shaping: shaping, keepAlive: keepAlive, for: head, context: context)
            return
        }
        file?.close()
        write(status: code, headers: headers, body: body, keepAlive: keepAlive, for: head, context: context, flushNow: flushNow)
    }

    /// Writes and flushes the head, then hands the body to a ``SinkBodySender``; the end follows when it has
    /// sent the last byte (then the next pipelined request is served), or the connection closes if it could not.
    private func writeStreamed(
        status: Int,
        headers: HTTPHeaders,
        source: SinkBodySource,
        shaping: SinkShaping,
        keepAlive: Bool,
        for request: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        context.write(wrapOutboundOut(.head(Self.responseHead(status: status, headers: headers, keepAlive: keepAlive, for: request))), promise: nil)
        context.flush()
        let sender = SinkBodySender(source: source, shaping: shaping, context: context) { [self] sent in
            guard case .sending = state else { return }
            guard sent else {
                state = .closed
                context.close(promise: nil)
                return
            }
            if !keepAlive || inputClosed {
                state = .closed
                closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), channel: context.channel)
            } else {
                state = .idle
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
        state = .sending(sender)
        sender.pump()
    }

    /// Writes a 200 head promising the pixel and the body's first ``SinkLimits/stallBodyBytes`` bytes, then
    /// stops: the connection stays open with the body unfinished (the caller marks it hung).
    private func stall(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: TrackingPixel.contentType)
        headers.add(name: "Content-Length", value: String(TrackingPixel.bytes.count))
        headers.add(name: "Cache-Control", value: "no-store")
        let version: HTTPVersion = head.version.major == 1 && head.version.minor == 0 ? .http1_0 : .http1_1
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))), promise: nil)
        if head.method != .HEAD {
            let first = Self.pixel.getSlice(at: Self.pixel.readerIndex, length: SinkLimits.stallBodyBytes)!
            context.write(wrapOutboundOut(.body(.byteBuffer(first))), promise: nil)
        }
        context.flush()
    }

    private func answerHitsPage(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        answerUnrecorded(SinkHit.jsonArray(recorder.hits()), contentType: "application/json", to: head, context: context)
    }

    /// A 200 with `body` that is not a beacon and is not recorded: the hits page, a fixed document.
    private func answerUnrecorded(_ body: some Collection<UInt8>, contentType: String, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        write(status: 200, headers: headers, body: [buffer], keepAlive: head.isKeepAlive && !inputClosed, for: head, context: context, flushNow: false)
    }

    /// Writes head, body parts (none for HEAD) and end; closes after the end when not keeping alive.
    private func write(
        status: Int,
        headers: HTTPHeaders,
        body: [ByteBuffer],
        keepAlive: Bool,
        for request: HTTPRequestHead,
        context: ChannelHandlerContext,
        flushNow: Bool
    ) {
        let head = Self.responseHead(status: status, headers: headers, keepAlive: keepAlive, for: request)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            for part in body { context.write(wrapOutboundOut(.body(.byteBuffer(part))), promise: nil) }
        }
        if !keepAlive {
            state = .closed
            closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), channel: context.channel)
        } else if flushNow {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            needsFlush = true
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func closeAfter(_ written: EventLoopFuture<Void>, channel: any Channel) {
        written.whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: - Helpers

    private func request(from head: HTTPRequestHead) -> SinkRequest {
        SinkRequest(
            connection: connection,
            method: head.method.rawValue,
            target: head.uri,
            userAgent: head.headers.first(name: "user-agent"),
            host: head.headers.first(name: "host"),
            range: head.headers.first(name: "range"),
            device: Self.device(head.headers)
        )
    }

    /// A server's fields for the device it beacons for, when it sent any.
    private static func device(_ headers: HTTPHeaders) -> SinkHit.DeviceHeaders? {
        let ip = headers.first(name: "x-device-ip"), agent = headers.first(name: "x-device-user-agent"), forwarded = headers.first(name: "x-forwarded-for")
        return ip == nil && agent == nil && forwarded == nil ? nil : SinkHit.DeviceHeaders(ip: ip, userAgent: agent, forwardedFor: forwarded)
    }
}
