import Foundation
import NIOCore
import NIOHTTP1

/// One connection of a `ScriptedHTTPServer`: answers its requests one at a time with the replies the script chooses,
/// writing the bytes itself (so a reply can promise a body it never sends). Lives on the server's event loop.
final class ScriptedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer
    typealias Reply = ScriptedHTTPServer.Reply

    private let log: ServerLog
    private let connection: Int
    private var head: HTTPRequestHead?
    /// Requests read but not answered yet (a client that pipelines).
    private var waiting: [HTTPRequestHead] = []
    private var answering = false
    private var open = true
    /// A pending step of a stall or a trickle, cancelled when the connection closes.
    private var scheduled: Scheduled<Void>?
    /// What a `stream` reply has left to send (`Int.max`: no end), resumed when the channel is writable again.
    private var streaming: (index: Int, left: Int)?
    private static let zeros = ByteBuffer(repeating: 0, count: 64 * 1024)

    init(log: ServerLog, connection: Int) {
        self.log = log
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(requestHead): head = requestHead
        case .body: break
        case .end:
            if let head {
                waiting.append(head)
                log.state.withLockedValue { $0.read += 1 }
            }
            head = nil
            answerNext(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        open = false
        scheduled?.cancel()
        scheduled = nil
        streaming = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, streaming != nil { pump(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: - Answering

    private func answerNext(context: ChannelHandlerContext) {
        guard open, !answering, !waiting.isEmpty else { return }
        let head = waiting.removeFirst()
        answering = true
        let request = ScriptedHTTPServer.Request(
            method: head.method.rawValue, target: head.uri, headers: head.headers.map { ScriptedHTTPServer.Header($0.name, $0.value) },
            connection: connection, status: nil, bodyBytesSent: 0)
        let (index, reply) = log.record(request)
        // A reply that says `Connection: close` ends the connection after it: requests pipelined behind it are
        // neither read nor answered (RFC 9112 §9.6), as a real server does.
        let keepAlive = head.isKeepAlive && reply.keepsConnection && !reply.closesConnection
        let withBody = head.method != .HEAD
        switch reply {
        case let .respond(status, headers, body):
            respond(index, status: status, headers: headers, body: body, withBody: withBody, keepAlive: keepAlive, context: context)
        case let .redirect(location, status):
            respond(index, status: status, headers: [.init("Location", location)], body: Data(), withBody: withBody, keepAlive: keepAlive, context: context)
        case let .file(path):
            let (status, headers, body) = ScriptedHTTPServer.fileResponse(path, range: head.headers.first(name: "Range"))
            respond(index, status: status, headers: headers, body: body, withBody: withBody, keepAlive: keepAlive, context: context)
        case let .stall(duration):
            closeLater(after: duration, context: context)
        case let .stallBody(promised, sent, closeAfter):
            write(index, status: 200, headers: [.init("Content-Type", "image/gif")], length: promised, body: sent, context: context)
            closeLater(after: closeAfter, context: context)
        case let .trickle(body, interval, fastBytes, contentType):
            write(index, status: 200, headers: [.init("Content-Type", contentType)], length: body.count, body: body.prefix(fastBytes), context: context)
            trickle(index, body.dropFirst(fastBytes), every: interval, context: context)
        case let .stream(prefix, contentType, length):
            let first = prefix.prefix(length ?? .max)
            write(index, status: 200, headers: [.init("Content-Type", contentType)], length: length, body: first, context: context)
            streaming = (index, (length ?? .max) - (length == nil ? 0 : first.count))
            pump(context: context)
        case .reset:
            guard let options = context.channel as? any SocketOptionProvider else { context.close(promise: nil); return }
            let channel = context.channel
            options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func respond(_ index: Int, status: Int, headers: [ScriptedHTTPServer.Header], body: Data, withBody: Bool,
                         keepAlive: Bool, context: ChannelHandlerContext) {
        let written = write(index, status: status, headers: headers, length: body.count, body: withBody ? body : Data(),
                            keepAlive: keepAlive, context: context)
        written.assumeIsolated().whenComplete { [self] result in
            guard case .success = result, keepAlive else { context.close(promise: nil); return }
            answering = false
            answerNext(context: context)
        }
    }

    /// Writes a response head (with `Content-Length: length` when it is not nil) and `body`, and flushes.
    @discardableResult
    private func write(_ index: Int, status: Int, headers: [ScriptedHTTPServer.Header], length: Int?, body: Data,
                       keepAlive: Bool = false, context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        log.answered(index, status: status)
        var text = "HTTP/1.1 \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        // Not said twice when the script's own headers say it already.
        let saysClose = headers.contains { $0.name.caseInsensitiveCompare("Connection") == .orderedSame && $0.value.lowercased() == "close" }
        text += keepAlive || saysClose ? "\r\n" : "Connection: close\r\n\r\n"
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count + body.count)
        buffer.writeString(text)
        buffer.writeBytes(body)
        let log = log, count = body.count
        return context.writeAndFlush(wrapOutboundOut(buffer)).map { log.sent(index, bytes: count) }
    }

    private func closeLater(after duration: Duration, context: ChannelHandlerContext) {
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { context.close(promise: nil) }
    }

    /// Sends one byte of `rest` every `interval`, then closes.
    private func trickle(_ index: Int, _ rest: Data, every interval: Duration, context: ChannelHandlerContext) {
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(interval)) { [self] in
            guard open else { return }
            guard let byte = rest.first else { context.close(promise: nil); return }
            let log = log
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [byte]))).whenSuccess { log.sent(index, bytes: 1) }
            trickle(index, rest.dropFirst(), every: interval, context: context)
        }
    }

    /// Writes zeros while the channel takes them; `channelWritabilityChanged` resumes it. Closes after the last byte.
    private func pump(context: ChannelHandlerContext) {
        guard open, let (index, total) = streaming else { return }
        var left = total
        let log = log
        if left == 0 {
            // All of it went with the head: close once that is written.
            streaming = nil
            context.writeAndFlush(wrapOutboundOut(ByteBuffer())).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        while left > 0, context.channel.isWritable {
            let part = left >= Self.zeros.readableBytes ? Self.zeros : Self.zeros.getSlice(at: 0, length: left)!
            left -= left == .max ? 0 : part.readableBytes
            let count = part.readableBytes
            let written = context.write(wrapOutboundOut(part))
            written.whenSuccess { log.sent(index, bytes: count) }
            if left == 0 { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        }
        streaming = left > 0 ? (index, left) : nil
        context.flush()
    }
}
