/// One HTTP request of an attempt, as sent and as answered: the first request, or a redirect hop. An attempt that
/// followed two redirects has three hops; the HAR writes one entry per hop.
public struct BeaconHop: Sendable, Equatable {
    /// The URL requested.
    public var url: String
    /// False for a redirect target that was not requested (refused by the URL rules, a cycle, one redirect too
    /// many): the attempt's failure is shown on it, as a browser shows a blocked request.
    public var requested: Bool
    /// The header fields sent, in order, as written on the wire (`Host`, `User-Agent`).
    public var requestHeaders: [HeaderField]
    /// Bytes of the request line and header block, up to and including the blank line; 0 when not requested.
    public var requestHeadersSize: Int
    /// When this hop's request started, from the start of the attempt.
    public var start: Duration
    /// The response's status; nil when none came.
    public var status: Int?
    /// The response's reason phrase (`Forbidden`, `Too Many Requests`); empty when no response came.
    public var reasonPhrase: String
    /// The response's HTTP version (`HTTP/1.1`); empty when no response came.
    public var httpVersion: String
    /// The response's header fields, in order; empty when none came.
    public var responseHeaders: [HeaderField]
    /// Bytes of the status line and header block as received, up to and including the blank line; nil when no
    /// response came.
    public var responseHeadersSize: Int?
    /// Time spent connecting when the attempt failed while connecting (refused, unreachable, connect timeout); nil
    /// otherwise (a pooled connection is not measured apart).
    public var connect: Duration?
    /// Time from the request to the response head (or to the failure, after the request was sent).
    public var wait: Duration
    /// Time reading the body.
    public var receive: Duration
    /// Body bytes received; nil when the body was not read (a redirect's is dropped unread).
    public var bodySize: Int?

    /// A hop as given; by default requested, with nothing sent or received and no timings.
    public init(url: String, requested: Bool = true, requestHeaders: [HeaderField] = [], requestHeadersSize: Int = 0,
                start: Duration = .zero, status: Int? = nil, reasonPhrase: String = "", httpVersion: String = "",
                responseHeaders: [HeaderField] = [], responseHeadersSize: Int? = nil, connect: Duration? = nil,
                wait: Duration = .zero, receive: Duration = .zero, bodySize: Int? = nil) {
        self.url = url
        self.requested = requested
        self.requestHeaders = requestHeaders
        self.requestHeadersSize = requestHeadersSize
        self.start = start
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.httpVersion = httpVersion
        self.responseHeaders = responseHeaders
        self.responseHeadersSize = responseHeadersSize
        self.connect = connect
        self.wait = wait
        self.receive = receive
        self.bodySize = bodySize
    }

    /// Bytes of an HTTP/1.1 head: its first line, `Name: value` and CRLF per field, and the blank line.
    public static func headSize(firstLine: String, headers: [HeaderField]) -> Int {
        headers.reduce(firstLine.utf8.count + 4) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2 }
    }
}
