/// One request the sink received, as recorded for reconciliation: what was asked, when, and what the sink
/// answered. Encoded as JSON with these property names, both in the hit log and at `/__vplay/hits`.
public struct SinkHit: Sendable, Equatable, Codable {
    /// Arrival order across the whole sink, from 1. Unique; hits are kept and logged in this order.
    public var sequence: Int
    /// Which TCP connection carried the request, numbered from 1 in order of acceptance; requests with the
    /// same number shared one keep-alive connection.
    public var connection: Int
    /// The request method as sent, e.g. `GET`.
    public var method: String
    /// The request target exactly as received, path and query, not percent-decoded: the string to compare
    /// with the beacon URL that was fired.
    public var target: String
    /// The part of ``target`` before the first `?`.
    public var path: String
    /// The part of ``target`` after the first `?`, or nil when there is no `?`.
    public var query: String?
    /// The `User-Agent` header, if sent.
    public var userAgent: String?
    /// The `Host` header, if sent.
    public var host: String?
    /// The `X-Device-*` header fields a server beaconing for a device sends (VAST 4.3 §1.1.3), with
    /// `X-Forwarded-For`; nil when the request had none of them.
    public var device: DeviceHeaders?

    /// What a request said of the device it was sent for.
    public struct DeviceHeaders: Sendable, Equatable, Codable {
        /// `X-Device-IP`.
        public var ip: String?
        /// `X-Device-User-Agent`.
        public var userAgent: String?
        /// `X-Forwarded-For`.
        public var forwardedFor: String?

        public init(ip: String?, userAgent: String?, forwardedFor: String?) {
            (self.ip, self.userAgent, self.forwardedFor) = (ip, userAgent, forwardedFor)
        }
    }
    /// When the request was complete, in milliseconds since 1970-01-01 UTC, from the sink's `now` function.
    public var receivedAtMilliseconds: Int64
    /// The status the sink answers with, or nil when it does not answer (a ``SinkFault/Kind/reset`` or
    /// ``SinkFault/Kind/hang`` fault). For a delayed answer, the status sent after the delay.
    public var status: Int?
    /// The faults applied, as their ``SinkFault/spec``s (e.g. `500x1@/complete`) in configuration order,
    /// separated by one space when several applied (an answer fault and shaping faults such as
    /// `rate=204800@/media/* ttfb=2000ms@/media/*`; a pattern never contains a space), or nil when none did.
    public var fault: String?
    /// The `Range` header as received (e.g. `bytes=0-`), or nil when the request sent none: with
    /// ``status`` 206 or 416 it says which bytes of a media file were asked for.
    public var range: String?

    /// A hit with every field given; the sink makes these, tests and reconciliation may too.
    public init(
        sequence: Int,
        connection: Int,
        method: String,
        target: String,
        path: String,
        query: String?,
        userAgent: String?,
        host: String?,
        receivedAtMilliseconds: Int64,
        status: Int?,
        fault: String?,
        range: String? = nil,
        device: DeviceHeaders? = nil
    ) {
        self.sequence = sequence
        self.connection = connection
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.userAgent = userAgent
        self.host = host
        self.receivedAtMilliseconds = receivedAtMilliseconds
        self.status = status
        self.fault = fault
        self.range = range
        self.device = device
    }
}
