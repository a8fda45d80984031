/// How beacons are sent.
public struct BeaconPolicy: Sendable {
    /// Per request. 5 s: IMA's HTML5 SDK gives a whole ad request 5 s; a pixel needs less.
    public var timeout: Duration = .seconds(5)
    /// Further attempts after a connection failure or a 5xx answer. 0 by default: a beacon counted twice is a
    /// measurement bug, and a server that answered 5xx may still have counted it. Timeouts are never retried (the
    /// request may have arrived).
    public var retries = 0
    /// Wait before the first retry; doubled for each later one.
    public var backoff: Duration = .milliseconds(500)
    /// Requests in flight at once; more wait their turn. 32 is far above a session's needs (a handful per event)
    /// and keeps a fleet from opening thousands of sockets.
    public var maxConcurrent = 32

    public init(timeout: Duration = .seconds(5), retries: Int = 0, backoff: Duration = .milliseconds(500), maxConcurrent: Int = 32) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Whether an attempt with this outcome is tried again (given attempts left).
    func retries(_ outcome: TransportOutcome) -> Bool {
        if let status = outcome.status { return status >= 500 }
        return outcome.error != "timed out"
    }
}
