import NIOCore
import NIOHTTP1
import NIOPosix
import Primitives

/// Serves a Prometheus `/metrics` endpoint over HTTP/1.1 (GET and HEAD; 404 elsewhere, 405 for other methods), its
/// text rendered at each scrape by `render`, on NIO's shared event loops. A run's metrics live as long as the run:
/// `stop()` closes the listener and every connection.
public final class MetricsServer: Sendable {
    /// The path served.
    public static let path = "/metrics"

    private let render: @Sendable () -> String
    private let state = Locked<(listener: (any Channel)?, connections: [ObjectIdentifier: any Channel])>((nil, [:]))
    private let group: any EventLoopGroup

    /// - Parameter render: the exposition text, called on an event loop at each scrape (`PrometheusText.render`).
    public init(render: @escaping @Sendable () -> String, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.render = render
        group = eventLoopGroup
    }

    /// Starts listening on `host`:`port` (0: a free port). Returns the bound port.
    public func start(host: String, port: Int) async throws -> Int {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(render: render))
                    let id = ObjectIdentifier(channel)
                    state.withLock { $0.connections[id] = channel }
                    channel.closeFuture.whenComplete { [self] _ in _ = state.withLock { $0.connections.removeValue(forKey: id) } }
                }
            }
        let listener = try await bootstrap.bind(host: host, port: port).get()
        state.withLock { $0.listener = listener }
        return listener.localAddress?.port ?? port
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        let (listener, connections) = state.withLock { state in
            defer { state = (nil, [:]) }
            return (state.listener, Array(state.connections.values))
        }
        try? await listener?.close()
        for connection in connections { try? await connection.close() }
    }
}
