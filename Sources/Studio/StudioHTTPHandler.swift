import Foundation
import NIOCore
import NIOHTTP1

/// Reads one request (head and body, capped) and hands it to the server.
final class StudioHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let server: StudioServer
    private var head: HTTPRequestHead?
    private var body = Data()
    private var tooLarge = false

    init(server: StudioServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            body = Data()
            tooLarge = false
        case var .body(buffer):
            if body.count + buffer.readableBytes > StudioServer.maxBody { tooLarge = true; return }
            if let bytes = buffer.readBytes(length: buffer.readableBytes) { body.append(contentsOf: bytes) }
        case .end:
            guard let head else { return }
            self.head = nil
            let channel = context.channel
            if tooLarge {
                var headers = StudioServer.securityHeaders
                headers.add(name: "Content-Length", value: "0")
                headers.add(name: "Connection", value: "close")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .payloadTooLarge, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            let request = StudioServer.Request(head: head, body: body)
            let server = self.server
            Task { await server.respond(request, on: channel) }
        }
    }

    typealias OutboundOut = HTTPServerResponsePart
}
