import NIOCore
import NIOHTTP1

/// One connection of the `MetricsServer`: answers each request as it completes, keep-alive as HTTP/1.1 says.
final class MetricsHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let render: @Sendable () -> String
    private var head: HTTPRequestHead?

    init(render: @escaping @Sendable () -> String) {
        self.render = render
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let status: HTTPResponseStatus, type: String, body: String
        if request.method != .GET && request.method != .HEAD {
            (status, type, body) = (.methodNotAllowed, "text/plain; charset=utf-8", "GET or HEAD only\n")
        } else if path != MetricsServer.path {
            (status, type, body) = (.notFound, "text/plain; charset=utf-8", "the metrics are at \(MetricsServer.path)\n")
        } else {
            (status, type, body) = (.ok, PrometheusText.contentType, render())
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
