import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Beacons over real HTTP GET with async-http-client (SwiftNIO): pooled connections, a per-request deadline,
/// redirects followed up to 5 (a beacon bouncing further is broken, and a loop must end), a User-Agent naming vplay.
/// The body is read and dropped, counted up to `maxBodyBytes`.
public final class HTTPBeaconTransport: BeaconTransport {
    private let client: HTTPClient
    private let userAgent: String
    /// Bodies past this many bytes are not read further (a tracking pixel is ~43 bytes; 64 KiB is generous).
    public static let maxBodyBytes = 64 * 1024

    /// - Parameter userAgent: sent with every request; name vplay and the simulated device.
    public init(userAgent: String) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.decompression = .disabled
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.userAgent = userAgent
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let clock = ContinuousClock()
        let started = clock.now
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        do {
            let deadline = TimeAmount.nanoseconds(Int64(timeout.seconds * 1e9))
            let response = try await client.execute(request, timeout: deadline)
            var bytes = 0
            for try await chunk in response.body {
                bytes += chunk.readableBytes
                if bytes >= Self.maxBodyBytes { break }
            }
            return TransportOutcome(status: Int(response.status.code), error: nil, latency: started.duration(to: clock.now), bytes: bytes)
        } catch {
            return TransportOutcome(status: nil, error: Self.describe(error), latency: started.duration(to: clock.now), bytes: 0)
        }
    }

    /// Closes the connection pool; call once at the end.
    public func shutdown() async {
        try? await client.shutdown()
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "timed out"
            case .redirectLimitReached: return "too many redirects"
            case .redirectCycleDetected: return "redirect cycle"
            case .remoteConnectionClosed: return "connection closed by the server"
            default: return "\(error)"
            }
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("connectionReset") || text.contains("Connection reset") { return "connection reset" }
        return text
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
