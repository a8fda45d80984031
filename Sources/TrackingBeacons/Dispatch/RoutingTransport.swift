/// Sends each request to a URL chosen by `route` (e.g. a loopback tracking URL redirected to the embedded sink's
/// port), keeping the beacon's own URL in the log.
public struct RoutingTransport: BeaconTransport, AffineTransport {
    /// The transport that sends the routed requests.
    public let base: any BeaconTransport
    /// Maps a beacon's URL to the URL to request (the URL itself when it is not rerouted).
    public let route: @Sendable (String) -> String

    /// A transport that sends each request to `route(url)` through `base`.
    public init(base: any BeaconTransport, route: @escaping @Sendable (String) -> String) {
        self.base = base
        self.route = route
        affine = base as? any AffineTransport
    }

    /// `base` when it has thread affinity, asked once.
    private let affine: (any AffineTransport)?

    /// The base transport's preference.
    var attemptExecutor: (any TaskExecutor)? { affine?.attemptExecutor }

    /// Starts the routed request through `base.startNow`; false when `base` cannot start it at once.
    func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool {
        affine?.startNow(route(url), timeout: timeout, done: done) ?? false
    }

    /// Sends the routed request through `base`.
    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        await base.send(route(url), timeout: timeout)
    }
}
