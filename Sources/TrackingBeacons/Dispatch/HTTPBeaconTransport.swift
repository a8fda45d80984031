#if canImport(Glibc)
import Primitives
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Beacons over real HTTP GET with async-http-client (SwiftNIO): pooled connections, one deadline per attempt that
/// covers connecting, the response head and the body, redirects followed up to 5 (a beacon bouncing further is
/// broken, and a loop must end), a User-Agent naming vplay and the simulated device. The body is read and dropped,
/// counted up to `maxBodyBytes`.
///
/// A failed connection fails the attempt at once: async-http-client's own connection retries are off, because with
/// them a refused connection is retried with backoff until the deadline and reported only then (AHC issue #743),
/// holding a concurrency slot for the whole timeout. Retrying is the dispatcher's decision (`BeaconPolicy`).
public final class HTTPBeaconTransport: BeaconTransport {
    private let client: HTTPClient
    private let userAgent: String
    /// Measures each attempt's latency and bounds its body's read (the machine's monotonic clock: real I/O).
    private let clock: ContinuousClock
    /// Bodies past this many bytes are not read further (a tracking pixel is ~43 bytes; 64 KiB is generous).
    public static let maxBodyBytes = 64 * 1024

    /// - Parameters:
    ///   - userAgent: sent with every request; name vplay and the simulated device.
    ///   - connectTimeout: how long establishing a connection may take, and how long a response may stop arriving
    ///     (its body included); the beacon timeout (default 5 s): the request's own deadline ends a slower connect
    ///     or head anyway.
    ///   - clock: the monotonic clock latencies and body deadlines are measured on.
    public init(userAgent: String, connectTimeout: Duration = .seconds(5), clock: ContinuousClock) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.decompression = .disabled
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .nanoseconds(max(1, connectTimeout.nanoseconds))
        // A body that stops arriving ends here (see `drain`); the request's own deadline covers connect and head.
        configuration.timeout.read = .nanoseconds(max(1, connectTimeout.nanoseconds))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.userAgent = userAgent
        self.clock = clock
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let started = clock.now
        let deadline = started.advanced(by: timeout)
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .now() + .nanoseconds(max(0, timeout.nanoseconds)))
        } catch {
            let failure = Self.classify(error)
            return TransportOutcome(status: nil, error: failure.reason, latency: started.duration(to: clock.now), bytes: 0,
                                    failedBeforeSending: failure.beforeSending, requestedURL: url)
        }
        // async-http-client's deadline ends with the response head; the body is read under what is left of it.
        let body = await Self.drain(response.body, until: deadline, clock: clock)
        return TransportOutcome(
            status: Int(response.status.code), error: body.error, latency: started.duration(to: clock.now), bytes: body.bytes,
            requestedURL: url, headers: response.headers.map { HeaderField(name: $0.name, value: $0.value) },
            redirects: response.history.dropFirst().map(\.request.url))
    }

    /// Closes the connection pool; call once at the end.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Reads and drops `body` until its end, `maxBodyBytes`, an error or `deadline`, whichever comes first.
    ///
    /// Read in this task, with no timer of its own (a tracking pixel's body is in hand with its head, so racing a
    /// timer task against every read cost more than the read): a body still arriving is stopped at the deadline
    /// between chunks, and one that stops arriving is ended by the client's read timeout (`readTimeout`, the
    /// beacon timeout), so an attempt never takes longer than its head plus one timeout.
    static func drain(_ body: HTTPClientResponse.Body, until deadline: ContinuousClock.Instant, clock: ContinuousClock) async -> (bytes: Int, error: String?) {
        var bytes = 0
        do {
            for try await chunk in body {
                bytes += chunk.readableBytes
                if bytes >= maxBodyBytes { break }
                if clock.now >= deadline { return (bytes, "timed out reading the body") }
            }
            return (bytes, nil)
        } catch {
            let reason = classify(error).reason
            return (bytes, reason == "timed out" ? "timed out reading the body" : "\(reason) while reading the body")
        }
    }

    /// A failed HTTP request in words (`connection refused`, `timed out`, `redirect cycle`, `too many redirects`,
    /// `connection reset`, …), as beacon records give it; for other clients of async-http-client (tag fetches).
    public static func describe(_ error: any Error) -> String { classify(error).reason }

    /// A failure in words (`connection refused`, `timed out`, …), and whether it happened before the request was
    /// written (only those are safe to retry).
    static func classify(_ error: any Error) -> (reason: String, beforeSending: Bool) {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return ("timed out", false)
            case .connectTimeout: return ("connect timed out", true)
            case .tlsHandshakeTimeout: return ("TLS handshake timed out", true)
            case .redirectLimitReached: return ("too many redirects", false)
            case .redirectCycleDetected: return ("redirect cycle", false)
            case .remoteConnectionClosed: return ("connection closed by the server", false)
            default: return ("\(error)", false)
            }
        }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return ("DNS lookup failed for \(error.host)", true)
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return (refused ? "connection refused" : "could not connect: \(error)", true)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return ("connection refused", true)
            case ENETUNREACH, EHOSTUNREACH: return ("could not connect: \(error)", true)
            case ECONNRESET: return ("connection reset", false)
            case EPIPE: return ("connection closed by the server", false)
            default: return ("\(error)", false)
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return ("connect timed out", true) }
        if let error = error as? NIOSSLError, case .handshakeFailed = error { return ("TLS handshake failed: \(error)", true) }
        if error is NIOSSLExtraError { return ("TLS handshake failed: \(error)", true) }
        if error is SocketAddressError { return ("DNS lookup failed: \(error)", true) }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return ("connection refused", true) }
        if text.contains("connectionReset") || text.contains("Connection reset") { return ("connection reset", false) }
        return (text, false)
    }
}

