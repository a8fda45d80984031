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
import Networking
import Synchronization

/// Beacons over real HTTP GET with async-http-client (SwiftNIO): pooled connections, one deadline per attempt that
/// covers connecting, the response head and the body, redirects followed up to 5 (a beacon bouncing further is
/// broken, and a loop must end; every URL and redirect target checked by a `URLGate` first), a User-Agent naming vplay and the simulated device. The body is read and dropped,
/// counted up to `maxBodyBytes`.
///
/// A failed connection fails the attempt at once: async-http-client's own connection retries are off, because with
/// them a refused connection is retried with backoff until the deadline and reported only then (AHC issue #743),
/// holding a concurrency slot for the whole timeout. Retrying is the dispatcher's decision (`BeaconPolicy`).
public final class HTTPBeaconTransport: BeaconTransport {
    private let client: GatedHTTPClient
    private let userAgent: String
    /// Sent after the User-Agent with every request (server-side mode's `X-Device-*`).
    private let extraHeaders: [(String, String)]
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
    ///   - followsRedirects: false: a redirect is the answer, its target never requested.
    ///   - extraHeaders: further header fields on every request: a stitcher's `X-Device-IP`, `X-Device-User-Agent`
    ///     and the like when vplay beacons on a device's behalf (VAST 4.3 §1.1.3).
    @_spi(LiveParts) public init(userAgent: String, connectTimeout: Duration = .seconds(5), clock: ContinuousClock, gate: URLGate = .open,
                proxy: ProxySettings = .direct, followsRedirects: Bool = true, extraHeaders: [(String, String)] = []) {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .disabled
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .nanoseconds(max(1, connectTimeout.nanoseconds))
        // A body that stops arriving ends here (see `drain`); the request's own deadline covers connect and head.
        configuration.timeout.read = .nanoseconds(max(1, connectTimeout.nanoseconds))
        client = GatedHTTPClient(gate: gate, configuration: configuration, proxy: proxy, followsRedirects: followsRedirects, clock: clock)
        self.userAgent = userAgent
        self.extraHeaders = extraHeaders
        self.clock = clock
    }

    /// Requests `url` once with a GET, following redirects through the gate, and reports how it went; never throws.
    /// `timeout` bounds the whole attempt.
    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let started = clock.now
        let deadline = started.advanced(by: timeout)
        let answer: GatedHTTPClient.Answer
        var hops: [BeaconHop] = []
        do {
            answer = try await client.get(url, headers: [("User-Agent", userAgent)] + extraHeaders, until: deadline, hops: &hops)
        } catch {
            let failure = Self.classify(error)
            // A connection that failed never got to wait for an answer: its time was spent connecting (HAR 1.2).
            if failure.beforeSending, let last = hops.indices.last, hops[last].status == nil {
                hops[last].connect = hops[last].wait
                hops[last].wait = .zero
            }
            return TransportOutcome(status: nil, error: failure.failure, latency: started.duration(to: clock.now), bytes: 0,
                                    failedBeforeSending: failure.beforeSending, requestedURL: url, hops: hops)
        }
        let response = answer.response
        // async-http-client's deadline ends with the response head; the body is read under what is left of it.
        let bodyStart = clock.now
        let body = await Self.drain(response.body, until: deadline, clock: clock)
        if let last = hops.indices.last {
            hops[last].receive = bodyStart.duration(to: clock.now)
            hops[last].bodySize = body.bytes
        }
        return TransportOutcome(
            status: Int(response.status.code), error: body.error, latency: started.duration(to: clock.now), bytes: body.bytes,
            requestedURL: url, headers: response.headers.map { HeaderField(name: $0.name, value: $0.value) },
            redirects: answer.redirects, hops: hops)
    }

    /// Closes the connection pool; call once at the end.
    public func shutdown() async {
        await client.shutdown()
    }

    /// Reads and drops `body` until its end, `maxBodyBytes`, an error or `deadline`, whichever comes first.
    ///
    /// Read in this task, with no timer of its own (a tracking pixel's body is in hand with its head, so racing a
    /// timer task against every read cost more than the read): a body still arriving is stopped at the deadline
    /// between chunks, and one that stops arriving is ended by the client's read timeout (`readTimeout`, the
    /// beacon timeout), so an attempt never takes longer than its head plus one timeout.
    static func drain(_ body: HTTPClientResponse.Body, until deadline: ContinuousClock.Instant, clock: ContinuousClock) async -> (bytes: Int, error: BeaconFailure?) {
        var bytes = 0
        do {
            for try await chunk in body {
                bytes += chunk.readableBytes
                if bytes >= maxBodyBytes { break }
                if clock.now >= deadline { return (bytes, .bodyTimedOut) }
            }
            return (bytes, nil)
        } catch {
            let failure = classify(error).failure
            return (bytes, failure == .timedOut ? .bodyTimedOut : .bodyFailed(BeaconFailureReason(failure)))
        }
    }

    /// A failed HTTP request in words (`connection refused`, `timed out`, `redirect cycle`, `too many redirects`,
    /// `connection reset`, …), as beacon records give it; for other clients of async-http-client (tag fetches).
    public static func describe(_ error: any Error) -> String { classify(error).failure.description }

    /// A failure in words (`connection refused`, `timed out`, …), and whether it happened before the request was
    /// written (only those are safe to retry).
    static func classify(_ error: any Error) -> (failure: BeaconFailure, beforeSending: Bool) {
        if let refusal = error as? GatedHTTPClient.Refusal {
            switch refusal {
            // Never sent, and sending it again would be refused again: not "before sending" (which is retried).
            case let .url(why): return (.refused(why), false)
            case let .redirect(target, why): return (.redirectRefused(target: target, why), false)
            case .tooManyRedirects: return (.tooManyRedirects, false)
            case .redirectCycle: return (.redirectCycle, false)
            }
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return (.timedOut, false)
            case .connectTimeout: return (.connectTimedOut, true)
            case .tlsHandshakeTimeout: return (.tlsHandshakeTimedOut, true)
            case .remoteConnectionClosed: return (.closedByServer, false)
            // async-http-client keeps the proxy's answer to CONNECT to itself: say in words who refused what.
            case .invalidProxyResponse: return (.other("the proxy refused to open a tunnel (CONNECT) to the host"), true)
            case .proxyAuthenticationRequired: return (.other("the proxy requires authentication (407)"), true)
            default: return (.other("\(error)"), false)
            }
        }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return (.dnsLookupFailed(host: error.host), true)
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return (refused ? .connectionRefused : .couldNotConnect("\(error)"), true)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return (.connectionRefused, true)
            case ENETUNREACH, EHOSTUNREACH: return (.couldNotConnect("\(error)"), true)
            case ECONNRESET: return (.connectionReset, false)
            case EPIPE: return (.closedByServer, false)
            default: return (.other("\(error)"), false)
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return (.connectTimedOut, true) }
        if let error = error as? NIOSSLError, case .handshakeFailed = error { return (.tlsHandshakeFailed(TLSWords.describe("\(error)")), true) }
        if error is NIOSSLExtraError { return (.tlsHandshakeFailed("\(error)"), true) }
        if error is SocketAddressError { return (.dnsLookupFailed(host: "\(error)"), true) }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return (.connectionRefused, true) }
        if text.contains("connectionReset") || text.contains("Connection reset") { return (.connectionReset, false) }
        return (.other(text), false)
    }
}

