import Networking

/// What one attempt got back.
public struct TransportOutcome: Sendable, Equatable {
    /// HTTP status of the final response (after redirects); nil when no response came.
    public var status: Int?
    /// Why it failed (connection refused, timed out, …); nil on a complete response. With a status, the answer
    /// arrived but its body did not finish (`timed out reading the body`).
    public var error: BeaconFailure?
    /// Time from sending to the end of the response (or the failure), wall clock.
    public var latency: Duration
    /// Body bytes received.
    public var bytes: Int
    /// True when the attempt failed while connecting, before any byte of the request was written: connection
    /// refused, DNS lookup failed, connect timeout, TLS handshake failed. Only such failures (and 5xx answers) are
    /// safe to retry; anything later may have reached the server, and a beacon counted twice is a measurement bug.
    public var failedBeforeSending: Bool
    /// The URL actually requested (after routing, e.g. to the embedded sink); nil when not known.
    public var requestedURL: String?
    /// Headers of the final response, in order; empty when no response came.
    public var headers: [HeaderField]
    /// URLs requested after the first one, in order, when redirects were followed.
    public var redirects: [String]
    /// Every request made, the first and each redirect hop, with what was sent and received; empty when not known.
    public var hops: [BeaconHop]

    /// An outcome as given; by default sent (not failed before sending), with no headers, redirects or hops.
    public init(status: Int?, error: BeaconFailure?, latency: Duration, bytes: Int, failedBeforeSending: Bool = false,
                requestedURL: String? = nil, headers: [HeaderField] = [], redirects: [String] = [], hops: [BeaconHop] = []) {
        self.status = status
        self.error = error
        self.latency = latency
        self.bytes = bytes
        self.failedBeforeSending = failedBeforeSending
        self.requestedURL = requestedURL
        self.headers = headers
        self.redirects = redirects
        self.hops = hops
    }

    /// A 2xx or 3xx final answer counts as delivered (beacons are fire-and-forget; VAST 4.x §2.3.4). A status that
    /// arrived counts even when its body then timed out: the server answered, so it saw the request.
    public var delivered: Bool { status.map { (200..<400).contains($0) } ?? false }
}
