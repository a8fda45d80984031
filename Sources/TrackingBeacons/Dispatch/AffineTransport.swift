import Networking

/// A transport with thread affinity: the pooled transport, and the wrappers that pass it through. The dispatcher asks
/// for it once, when it is made; a transport without it is sent through with `send`, each attempt in a task on
/// Swift's default executor.
protocol AffineTransport: BeaconTransport {
    /// Where an attempt started now should run: the pooled transport's event loop of the calling thread (so the
    /// attempt, its connection and its answer stay on one thread). nil: Swift's default executor.
    var attemptExecutor: (any TaskExecutor)? { get }
    /// Starts an attempt without a task when it can at once (on an event loop, with a free connection there). true:
    /// `done` gets the outcome once, on whatever thread it comes (maybe before this returns; call it holding no lock
    /// `done` takes). false: nothing started; use `send`.
    func startNow(_ url: String, timeout: Duration, done: @escaping @Sendable (TransportOutcome) -> Void) -> Bool
}
