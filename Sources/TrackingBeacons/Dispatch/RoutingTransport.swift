/// Sends each request to a URL chosen by `route` (e.g. a loopback tracking URL redirected to the embedded sink's
/// port), keeping the beacon's own URL in the log.
public struct RoutingTransport: BeaconTransport {
    /// The transport that sends the routed requests.
    public let base: any BeaconTransport
    /// Maps a beacon's URL to the URL to request (the URL itself when it is not rerouted).
    public let route: @Sendable (String) -> String

    /// A transport that sends each request to `route(url)` through `base`.
    public init(base: any BeaconTransport, route: @escaping @Sendable (String) -> String) {
        self.base = base
        self.route = route
    }

    /// The base transport's preference.
    public var attemptExecutor: (any TaskExecutor)? { base.attemptExecutor }

    /// Starts the routed request through `base.startNow`; false when `base` cannot start it at once.
    public func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool {
        base.startNow(route(url), timeout: timeout, done: done)
    }

    /// Sends the routed request through `base`.
    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        await base.send(route(url), timeout: timeout)
    }
}
