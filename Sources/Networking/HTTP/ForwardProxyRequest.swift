import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain `http://` GET through a forward proxy in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2),
/// as curl and browsers send it. async-http-client tunnels every proxied request with `CONNECT`, which a stock forward
/// proxy allows to port 443 only (tinyproxy's and Squid's default configurations), so a plain-http tag or beacon
/// failed the whole run with "invalidProxyResponse". `https://` still goes through a `CONNECT` tunnel (the client's).
///
/// One connection per request (`Connection: close`); the body is read whole, up to `maxBodyBytes` (a tag is at most
/// 2 MiB before decoding, a beacon's body is discarded), and handed back as the response's body. Errors are the ones
/// async-http-client throws for the same failures (`HTTPClientError.deadlineExceeded`, `.remoteConnectionClosed`,
/// NIO's connect errors), so callers classify them alike.
enum ForwardProxyRequest {
    /// The most body bytes read from one answer: far above any tag (2 MiB) or beacon; a larger body ends the
    /// request as closed by the server.
    static let maxBodyBytes = 16 << 20

    static func get(_ url: URL, through proxy: ProxySettings.Endpoint, headers: [(String, String)],
                    timeout left: TimeAmount) async throws -> HTTPClientResponse {
        let group = MultiThreadedEventLoopGroup.singleton
        let loop = group.next()
        let answer = loop.makePromise(of: Collected.self)
        guard left > .zero else { throw HTTPClientError.deadlineExceeded }
        // The whole exchange ends `left` from now, on the loop's clock (its timers'), connecting included.
        let deadline = loop.now + left
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(left)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(Collector(answer: answer))
                    }
                }
                .connect(host: proxy.host, port: proxy.port).get()
        } catch {
            answer.fail(error)
            throw error
        }
        let timer = loop.scheduleTask(deadline: deadline) {
            answer.fail(HTTPClientError.deadlineExceeded)
            channel.close(promise: nil)
        }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.absoluteString)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let collected: Collected
        do {
            collected = try await withTaskCancellationHandler {
                try await answer.futureResult.get()
            } onCancel: {
                answer.fail(CancellationError())
                channel.close(promise: nil)
            }
        } catch {
            timer.cancel()
            channel.close(promise: nil)
            throw error
        }
        timer.cancel()
        channel.close(promise: nil)
        return HTTPClientResponse(version: collected.head.version, status: collected.head.status, headers: collected.head.headers,
                                  body: .bytes(collected.body))
    }

    struct Collected: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
    }

    /// Gathers one response, and fails `answer` when the connection ends before it does.
    final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        private let answer: EventLoopPromise<Collected>
        private var head: HTTPResponseHead?
        private var body = ByteBuffer()
        private var done = false

        init(answer: EventLoopPromise<Collected>) { self.answer = answer }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !done else { return }
            switch unwrapInboundIn(data) {
            case let .head(received):
                // An interim answer (100 Continue) is not the response.
                if received.status.code >= 200 { head = received }
            case var .body(chunk):
                guard head != nil else { return }
                guard body.readableBytes + chunk.readableBytes <= ForwardProxyRequest.maxBodyBytes else {
                    finish(.failure(HTTPClientError.remoteConnectionClosed))
                    context.close(promise: nil)
                    return
                }
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                finish(.success(Collected(head: head, body: body)))
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(.failure(error))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failure(HTTPClientError.remoteConnectionClosed))
            context.fireChannelInactive()
        }

        private func finish(_ result: Result<Collected, any Error>) {
            guard !done else { return }
            done = true
            answer.completeWith(result)
        }
    }
}
