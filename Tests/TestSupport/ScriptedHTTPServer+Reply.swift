import Foundation

extension ScriptedHTTPServer {
    /// What the server does with one request.
    public enum Reply: Sendable {
        /// A complete response: this status, these headers, this body, with a `Content-Length` for it.
        case respond(status: Int, headers: [Header], body: Data)
        /// A redirect to `Location` (absolute, or a path on this server), with an empty body.
        case redirect(to: String, status: Int = 302)
        /// Read the request, then send nothing for this long (or until the client goes away or the server stops),
        /// then close. Bounded, so a client that never gives up fails its test instead of hanging it.
        case stall(for: Duration)
        /// `200 OK` with a `Content-Length` of `promised` bytes and the first bytes of the body (`sent`), then
        /// silence for `closeAfter` (or until the server stops), then an orderly close that leaves the body short.
        case stallBody(promised: Int, sent: Data, closeAfter: Duration)
        /// `200 OK` with a `Content-Length` for all of `body`, then its first `fastBytes` bytes at once, then one byte
        /// every `interval`, then the connection is closed.
        case trickle(Data, every: Duration, fastBytes: Int = 0, contentType: String = "video/mp4")
        /// `200 OK`, then `prefix` and zero bytes, 64 KiB at a time as fast as the client reads them: `length` bytes
        /// in all, announced in `Content-Length`; or, when `length` is nil, no `Content-Length` and a body that never
        /// ends (until the client goes away or the server stops). Costs the server one 64 KiB chunk of memory.
        case stream(prefix: Data, contentType: String, length: Int?)
        /// Read the request, then close with a TCP reset (`SO_LINGER` 0) without answering.
        case reset
        /// The file at this path, as a file server sends it: `200` with its `Content-Length`, or `206 Partial
        /// Content` for a `Range: bytes=…` request (`416` when the range starts past the end), `Accept-Ranges:
        /// bytes`, and a `Content-Type` from its extension (`application/octet-stream` when it has none, as
        /// Python's `http.server` answers). A file that cannot be read is a `404`.
        case file(String)

        /// `200 OK` with this body and content type.
        public static func body(_ body: Data, contentType: String) -> Reply {
            .respond(status: 200, headers: [Header("Content-Type", contentType)], body: body)
        }

        /// This status with an empty body (a 404, a 500).
        public static func status(_ status: Int) -> Reply { .respond(status: status, headers: [], body: Data()) }

        /// Whether a complete response says `Connection: close` itself (the connection ends after it).
        var closesConnection: Bool {
            guard case let .respond(_, headers, _) = self else { return false }
            return headers.contains { $0.name.caseInsensitiveCompare("Connection") == .orderedSame && $0.value.lowercased() == "close" }
        }

        /// Whether the connection can serve another request after this reply (the others end it).
        var keepsConnection: Bool {
            switch self {
            case .respond, .redirect, .file: true
            case .stall, .stallBody, .trickle, .stream, .reset: false
            }
        }
    }

    /// One header field, in the order written.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A request the server received, with what it answered.
    public struct Request: Sendable, Equatable {
        /// `GET`, `HEAD`…
        public var method: String
        /// The request target as sent: path and query.
        public var target: String
        /// The request's header fields, in order.
        public var headers: [Header]
        /// Which connection it came on (0 for the first the server accepted).
        public var connection: Int
        /// The status the server answered with; nil when it sent no status line (a stall, a reset).
        public var status: Int?
        /// Body bytes written to the connection so far (handed to the kernel; the client may not have read them all).
        public var bodyBytesSent: Int

        /// The first value of the header field `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        public var userAgent: String? { header("User-Agent") }
    }
}
