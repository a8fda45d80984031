/// How beacons are sent.
public struct BeaconPolicy: Sendable {
    /// Per request. 5 s: IMA's HTML5 SDK gives a whole ad request 5 s; a pixel needs less.
    public var timeout: Duration = .seconds(5)
    /// Further attempts after a failure to connect or a 5xx answer. 0 by default: a beacon counted twice is a
    /// measurement bug, and a server that answered 5xx may still have counted it. Only failures before the request
    /// was written are retried (refused, DNS, connect timeout, TLS handshake); never a timeout, a reset or a close
    /// after sending, or a redirect limit or cycle (the request arrived, or may have).
    public var retries = 0
    /// Wait before the first retry; doubled for each later one.
    public var backoff: Duration = .milliseconds(500)
    /// Requests in flight at once; more wait their turn. 32 is far above a session's needs (a handful per event)
    /// and keeps a fleet from opening thousands of sockets.
    public var maxConcurrent = 32
    /// Requests one keep-alive connection carries at once, pipelined (HTTP/1.1, answered in order) when more than
    /// one: a fleet's `--pipeline`, honoured by its pooled transport only. 1: one at a time, as devices send.
    public var pipelineDepth = 1

    /// A policy as given; negative `retries` count as 0 and `maxConcurrent` is at least 1. `pipelineDepth` starts at 1.
    public init(timeout: Duration = .seconds(5), retries: Int = 0, backoff: Duration = .milliseconds(500), maxConcurrent: Int = 32) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Whether an attempt with this outcome is tried again (given attempts left): a 5xx answer, or a failure before
    /// any byte of the request left.
    func retries(_ outcome: TransportOutcome) -> Bool {
        if let status = outcome.status { return status >= 500 }
        return outcome.failedBeforeSending
    }
}
