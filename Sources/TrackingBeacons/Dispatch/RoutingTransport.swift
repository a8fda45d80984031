/// Sends each request to a URL chosen by `route` (e.g. a loopback tracking URL redirected to the embedded sink's
/// port), keeping the beacon's own URL in the log.
public struct RoutingTransport: BeaconTransport {
    public let base: any BeaconTransport
    public let route: @Sendable (String) -> String

    public init(base: any BeaconTransport, route: @escaping @Sendable (String) -> String) {
        self.base = base
        self.route = route
    }

    public var attemptExecutor: (any TaskExecutor)? { base.attemptExecutor }

    public func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool {
        base.startNow(route(url), timeout: timeout, done: done)
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        await base.send(route(url), timeout: timeout)
    }
}
