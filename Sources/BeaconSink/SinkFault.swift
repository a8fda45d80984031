/// A misbehaviour the sink shows to matching tracking requests, so vplay's retry, timeout and
/// reconciliation paths can be exercised against a server that fails on purpose.
///
/// Faults come in two families. An *answer* fault (status, `delay`, `reset`, `hang`, `stall`, `body`)
/// decides what the sink answers: they are tried in the order the configuration lists them, and the first
/// one whose ``pattern`` matches the request and whose ``times`` budget is not used up applies. So
/// `500x1@/complete` followed by `delay=1s@/complete` answers the first `/complete` with 500 and delays
/// every later one. A *shaping* fault (`rate`, `ttfb`, timed `stall=DURATION`; ``Kind/shapesBody``) changes
/// only when the answer's bytes leave: every matching one with budget applies together with the answer
/// fault, except that of two shaping faults of the same kind only the first listed applies (the other keeps
/// its budget). So `rate=200k@/media/*` and `ttfb=2s@/media/*` together hold the headers 2 s, then send the
/// body at 200 KiB/s.
/// Build one in code, or from a command-line spec with ``init(spec:)`` (grammar there).
public struct SinkFault: Sendable, Hashable {
    /// What the sink does instead of answering 200 with the tracking pixel.
    public enum Kind: Sendable, Hashable {
        /// Answer with this status code and an empty body. Codes 200...599 only: a 1xx is not a final answer.
        case status(Int)
        /// Wait this long, then answer as if there were no fault (200 with the pixel for GET and HEAD).
        /// Later requests pipelined on the same connection wait behind it, as HTTP/1.1 requires.
        case delay(Duration)
        /// Close the connection without answering, with `SO_LINGER` 0 so the client sees a TCP reset
        /// (`ECONNRESET`) rather than an orderly end of stream.
        case reset
        /// Never answer. The connection stays open, and reads nothing more, until the client gives up
        /// or the sink stops; the client's own timeout is what fires.
        case hang
        /// Answer 200 with headers promising the tracking pixel, send only its first bytes, then nothing
        /// more until the client gives up or the sink stops: for clients whose timeout must cover the body,
        /// not only the response head. The hit's status is 200, the status that was sent.
        case stall
        /// Answer 200 with a body of this many zero bytes (`application/octet-stream`), to test clients
        /// that must not buffer a whole beacon response. At most ``SinkLimits/maximumFaultBodyBytes``.
        case body(bytes: Int)
        /// Shaping: send the answer's body at most this many bytes per second (not bits), paced by timers
        /// on the connection's event loop. 1 byte/s up to 1 GiB/s.
        case rate(bytesPerSecond: Int)
        /// Shaping: hold the status line and headers this long (time to first byte), then answer. Adds to a
        /// `delay` fault's wait when both apply.
        case ttfb(Duration)
        /// Shaping: when the body reaches `afterPercent` % (0...99) of the resource's full size (the file's,
        /// for a range request of a media file; the body's, otherwise), pause this long, then send the rest.
        /// A request whose range does not include that byte does not pause.
        case timedStall(Duration, afterPercent: Int)

        /// Whether this kind shapes the timing of an answer (`rate`, `ttfb`, timed `stall`) rather than
        /// deciding what the answer is. Shaping faults combine; answer faults do not (see ``SinkFault``).
        public var shapesBody: Bool {
            switch self {
            case .rate, .ttfb, .timedStall: true
            case .status, .delay, .reset, .hang, .stall, .body: false
            }
        }
    }

    /// Which requests the fault applies to: a path prefix such as `/midpoint`, or a glob with `*` such as
    /// `/track/*/complete` or `*` (every request). Matched against the path as received (not
    /// percent-decoded), or against the whole target, path and query, when the pattern contains `?`.
    /// See ``matches(path:target:)``.
    public var pattern: String
    /// What the sink does.
    public var kind: Kind
    /// Apply to the first `times` matching requests only, then stand aside; `nil` applies to every match.
    public var times: Int?

    /// A fault of `kind` for requests matching `pattern`, for the first `times` of them (`nil`: always).
    public init(pattern: String, kind: Kind, times: Int? = nil) {
        self.pattern = pattern
        self.kind = kind
        self.times = times
    }
}
