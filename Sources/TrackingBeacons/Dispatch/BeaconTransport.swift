/// Sends one tracking request. The real one is `HTTPBeaconTransport`; unit tests of pure logic use a recording one.
public protocol BeaconTransport: Sendable {
    /// Requests `url` once (no retry) and reports how it went; never throws.
    func send(_ url: String, timeout: Duration) async -> TransportOutcome
}

/// What one attempt got back.
public struct TransportOutcome: Sendable, Equatable {
    /// HTTP status of the final response (after redirects); nil when no response came.
    public var status: Int?
    /// Why it failed (connection refused, timed out, …); nil on a response.
    public var error: String?
    /// Time from sending to the end of the response, wall clock.
    public var latency: Duration
    /// Body bytes received.
    public var bytes: Int

    public init(status: Int?, error: String?, latency: Duration, bytes: Int) {
        self.status = status
        self.error = error
        self.latency = latency
        self.bytes = bytes
    }

    /// A 2xx or 3xx final answer counts as delivered (beacons are fire-and-forget; VAST 4.x §2.3.4).
    public var delivered: Bool { status.map { (200..<400).contains($0) } ?? false }
}
