#if canImport(Glibc)
import Primitives
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An embedded HTTP/1.1 server that answers tracking beacons and records every hit, so vplay can prove
/// each beacon it fired arrived exactly once (and show what happens when the server misbehaves).
///
/// It answers any GET or HEAD with 200 and the 43-byte transparent GIF, other methods with 405, and
/// records all of them, unless a configured ``SinkFault`` says otherwise. `GET /__vplay/hits` returns the
/// hits as a JSON array and is not itself recorded. Keep-alive and pipelining follow HTTP/1.1. With a
/// ``SinkConfiguration/mediaDirectory`` it also serves that folder's regular files at `/media/…`, with
/// byte ranges, under the same faults (a `rate`, `ttfb` or timed `stall` fault shapes their bodies).
/// Oversized or malformed requests are refused (see ``SinkLimits``) without stopping the sink.
///
/// This is a test tool: it binds to loopback unless told otherwise and keeps every hit in memory (unless told not to:
/// ``SinkConfiguration/keepsHits``, for fleets that reconcile hits as they arrive through ``SinkConfiguration/onHit``).
///
/// ```swift
/// let sink = BeaconSink(configuration: SinkConfiguration(faults: [try SinkFault(spec: "500x1@/complete")]))
/// let port = try await sink.start()
/// // … fire beacons at http://127.0.0.1:\(port)/… …
/// _ = await sink.waitForHits(count: expected, timeout: .seconds(5))
/// let hits = sink.hits()
/// await sink.stop()
/// ```
public final class BeaconSink: Sendable {
    private enum Phase {
        case idle, starting, running(any Channel), stopped
    }

    private struct Lifecycle {
        var phase = Phase.idle
        var port: Int?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var log: HitLogWriter?
        var media: SinkMediaLibrary?
    }

    /// How this sink listens, misbehaves and logs, as given to ``init(configuration:now:eventLoopGroup:)``.
    public let configuration: SinkConfiguration
    private let recorder: SinkRecorder
    private let group: any EventLoopGroup
    private let connectionCount = Atomic<Int>(0)
    private let lifecycle = Locked(Lifecycle())

    /// A sink that will listen as `configuration` says once started.
    ///
    /// - Parameters:
    ///   - now: The wall clock for ``SinkHit/receivedAtMilliseconds``, in milliseconds since 1970; inject a
    ///     fixed or counting function to make hits deterministic in tests.
    ///   - eventLoopGroup: Where connections are served. The default, NIO's shared singleton group, has one
    ///     thread per core and is never shut down, so sinks can come and go cheaply.
    public init(
        configuration: SinkConfiguration = SinkConfiguration(),
        now: @escaping @Sendable () -> Int64 = BeaconSink.wallClockMilliseconds,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.recorder = SinkRecorder(faults: configuration.faults, keepsHits: configuration.keepsHits, onHit: configuration.onHit, now: now)
        self.group = eventLoopGroup
    }

    /// The real wall clock: milliseconds since 1970-01-01 UTC (`CLOCK_REALTIME`).
    @Sendable
    public static func wallClockMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Opens the hit log (if configured) and starts listening.
    ///
    /// - Returns: The bound TCP port: the configured one, or the one the system picked for port 0.
    /// - Throws: ``BeaconSinkError/alreadyStarted`` on a second call (also after ``stop()``: a sink runs
    ///   once), ``BeaconSinkError/logFailed(path:errno:)``, ``BeaconSinkError/bindFailed(host:port:reason:)``.
    @discardableResult
    public func start() async throws(BeaconSinkError) -> Int {
        let mayStart = lifecycle.withLock { lifecycle in
            guard case .idle = lifecycle.phase else { return false }
            lifecycle.phase = .starting
            return true
        }
        guard mayStart else { throw .alreadyStarted }

        var media: SinkMediaLibrary?
        if let directory = configuration.mediaDirectory {
            do {
                media = try SinkMediaLibrary(directory: directory)
            } catch {
                lifecycle.withLock { $0.phase = .idle }
                throw error
            }
            lifecycle.withLock { $0.media = media }
        }

        var log: HitLogWriter?
        if let path = configuration.logPath {
            do {
                log = try HitLogWriter(path: path)
            } catch {
                lifecycle.withLock { $0.phase = .idle }
                throw error
            }
            recorder.attach(log: log!)
        }

        let server: any Channel
        do {
            server = try await bootstrap().bind(host: configuration.host, port: configuration.port).get()
        } catch {
            log?.finish()
            lifecycle.withLock { $0.phase = .idle }
            throw .bindFailed(host: configuration.host, port: configuration.port, reason: String(describing: error))
        }
        let port = server.localAddress?.port ?? configuration.port
        let stoppedMeanwhile = lifecycle.withLock { lifecycle in
            lifecycle.port = port
            lifecycle.log = log
            guard case .starting = lifecycle.phase else { return true }
            lifecycle.phase = .running(server)
            return false
        }
        if stoppedMeanwhile {
            try? await server.close()
        }
        return port
    }

    /// The port the sink listens on (or listened on, once stopped); nil before ``start()`` returned.
    public var port: Int? {
        lifecycle.withLock { $0.port }
    }

    /// `http://HOST:PORT` for the running sink, ready to prefix a beacon path; nil before ``start()``.
    public var baseURL: String? {
        guard let port else { return nil }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// A snapshot of every hit recorded so far, in arrival (``SinkHit/sequence``) order; empty when the sink does not
    /// keep them (``SinkConfiguration/keepsHits``).
    public func hits() -> [SinkHit] {
        recorder.hits()
    }

    /// How many hits have been recorded so far. Cheaper than `hits().count` for polling: a snapshot shares
    /// storage with the live list, so the next hit after a ``hits()`` call copies the whole list once.
    public var hitCount: Int {
        recorder.count
    }

    /// Waits until at least `count` hits have been recorded.
    ///
    /// - Returns: true as soon as there are `count` hits; false if `timeout` passes first, the calling task
    ///   is cancelled, or the sink stops with fewer.
    public func waitForHits(count: Int, timeout: Duration) async -> Bool {
        await recorder.waitForHits(count: count, timeout: timeout, on: group.next())
    }

    /// The first error writing the hit log, if any. Writing stops at the first error; hits are still kept
    /// in memory and answered.
    public var logFailure: BeaconSinkError? {
        lifecycle.withLock { $0.log }?.failure
    }

    /// Stops listening, closes every open connection (delayed and hung ones included), ends every
    /// ``waitForHits(count:timeout:)`` and closes the hit log. The port is free again when this returns.
    /// Idempotent: later calls return at once. Hits stay readable.
    public func stop() async {
        let (server, connections, wasStopped) = lifecycle.withLock { lifecycle -> ((any Channel)?, [any Channel], Bool) in
            if case .stopped = lifecycle.phase { return (nil, [], true) }
            var server: (any Channel)?
            if case .running(let channel) = lifecycle.phase { server = channel }
            lifecycle.phase = .stopped
            let connections = Array(lifecycle.connections.values)
            lifecycle.connections = [:]
            return (server, connections, false)
        }
        guard !wasStopped else { return }
        if let server {
            server.close(promise: nil)
            try? await server.closeFuture.get()
        }
        for connection in connections {
            connection.close(promise: nil)
        }
        for connection in connections {
            try? await connection.closeFuture.get()
        }
        recorder.finish()
    }

    // MARK: - Serving

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: SinkLimits.listenBacklog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.configure(channel)
                }
            }
    }

    /// Sets up one accepted connection, or closes it if the sink has stopped meanwhile.
    private func configure(_ channel: any Channel) throws {
        let id = ObjectIdentifier(channel)
        let (accepted, media) = lifecycle.withLock { lifecycle -> (Bool, SinkMediaLibrary?) in
            if case .stopped = lifecycle.phase { return (false, nil) }
            lifecycle.connections[id] = channel
            return (true, lifecycle.media)
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = lifecycle.withLock { $0.connections.removeValue(forKey: id) }
        }

        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = SinkLimits.maximumHeadBytes
        limits.maxHeaderListSize = SinkLimits.maximumHeadBytes
        limits.maxHeaderFieldCount = SinkLimits.maximumHeaderFieldCount
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(
            withPipeliningAssistance: true,
            withErrorHandling: false,
            withOutboundHeaderValidation: false,
            withEncoderConfiguration: HTTPResponseEncoder.Configuration(),
            withDecoderLimitConfiguration: limits
        )
        let number = connectionCount.wrappingAdd(1, ordering: .relaxed).newValue
        try pipeline.addHandler(SinkConnectionHandler(recorder: recorder, media: media, documents: configuration.documents, connection: number))
    }
}
