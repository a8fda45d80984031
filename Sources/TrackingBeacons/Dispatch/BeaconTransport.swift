import Networking

/// Sends one tracking request. The real one is `HTTPBeaconTransport`; unit tests of pure logic use a recording one.
public protocol BeaconTransport: Sendable {
    /// Requests `url` once (no retry) and reports how it went; never throws. `timeout` bounds the whole attempt:
    /// connecting, the response head and the body.
    func send(_ url: String, timeout: Duration) async -> TransportOutcome
}

