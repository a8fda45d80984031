import Networking

/// Why a beacon attempt did not end with a 2xx/3xx answer: a value with a stable `code` for programs (the beacon
/// log's `errorCode`, a fleet's failure counts) and `description` in words for people (the log's `error`).
public enum BeaconFailure: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Not requested: the URL (or a redirect's target) cannot be requested, or `--deny-private-networks` refused
    /// its address (`URLGate`).
    case refused(URLRefusal)
    /// A response redirected to `target`, which is refused like a URL (not followed).
    case redirectRefused(target: String, URLRefusal)
    /// The server refused the connection.
    case connectionRefused
    /// The host name did not resolve.
    case dnsLookupFailed(host: String)
    /// The connection failed for another reason, in the HTTP client's words.
    case couldNotConnect(String)
    /// The connection was not established within the connect timeout.
    case connectTimedOut
    /// The TLS handshake did not finish in time.
    case tlsHandshakeTimedOut
    /// The TLS handshake failed (an untrusted certificate, …), with why.
    case tlsHandshakeFailed(String)
    /// No complete answer within the beacon timeout.
    case timedOut
    /// The status and headers arrived; the body stopped or ran past the deadline (the answer still counts).
    case bodyTimedOut
    /// The status and headers arrived; reading the body then failed (`reason` says how).
    case bodyFailed(BeaconFailureReason)
    /// A redirect past the most the client follows (`GatedHTTPClient.maxRedirects`, 5).
    case tooManyRedirects
    /// A redirect led back to a URL already requested.
    case redirectCycle
    /// The server closed the connection before a complete answer.
    case closedByServer
    /// The connection was reset.
    case connectionReset
    /// A final answer that is not 2xx/3xx.
    case httpStatus(Int)
    /// The attempt was on the wire when the session ended.
    case unansweredAtSessionEnd
    /// The beacon never went out: it waited for a concurrency slot or its retry when the session ended.
    case notSentBeforeSessionEnd
    /// Meant for the embedded sink, which could not start: not sent anywhere.
    case sinkUnavailable
    /// Queued, waiting or on the wire when the app was killed (`terminate`): lost with it, neither delivered nor failed.
    case lost
    /// A failure the transport could not classify, in the HTTP client's words.
    case other(String)

    /// Stable, machine-readable, lowerCamelCase like every enumerated value vplay writes: `connectionRefused`,
    /// `httpStatus`, `timedOut`, …
    public var code: String {
        switch self {
        case let .refused(refusal), let .redirectRefused(_, refusal): refusal.code
        case .connectionRefused: "connectionRefused"
        case .dnsLookupFailed: "dnsLookupFailed"
        case .couldNotConnect: "couldNotConnect"
        case .connectTimedOut: "connectTimedOut"
        case .tlsHandshakeTimedOut: "tlsHandshakeTimedOut"
        case .tlsHandshakeFailed: "tlsHandshakeFailed"
        case .timedOut: "timedOut"
        case .bodyTimedOut: "bodyTimedOut"
        case .bodyFailed: "bodyFailed"
        case .tooManyRedirects: "tooManyRedirects"
        case .redirectCycle: "redirectCycle"
        case .closedByServer: "closedByServer"
        case .connectionReset: "connectionReset"
        case .httpStatus: "httpStatus"
        case .unansweredAtSessionEnd: "unansweredAtSessionEnd"
        case .notSentBeforeSessionEnd: "notSentBeforeSessionEnd"
        case .sinkUnavailable: "sinkUnavailable"
        case .lost: "lost"
        case .other: "other"
        }
    }

    public var description: String {
        switch self {
        case let .refused(refusal): refusal.description
        case let .redirectRefused(target, refusal): "redirect to \(target) not followed: \(refusal)"
        case .connectionRefused: "connection refused"
        case let .dnsLookupFailed(host): "DNS lookup failed for \(host)"
        case let .couldNotConnect(why): "could not connect: \(why)"
        case .connectTimedOut: "connect timed out"
        case .tlsHandshakeTimedOut: "TLS handshake timed out"
        case let .tlsHandshakeFailed(why): "TLS handshake failed: \(why)"
        case .timedOut: "timed out"
        case .bodyTimedOut: "timed out reading the body"
        case let .bodyFailed(reason): "\(reason.text) while reading the body"
        case .tooManyRedirects: "too many redirects"
        case .redirectCycle: "redirect cycle"
        case .closedByServer: "connection closed by the server"
        case .connectionReset: "connection reset"
        case let .httpStatus(status): "HTTP \(status)"
        case .unansweredAtSessionEnd: "unanswered at session end"
        case .notSentBeforeSessionEnd: "not sent before session end"
        case .sinkUnavailable: "not sent: the beacon sink could not start"
        case .lost: "lost: the app was terminated before it was answered"
        case let .other(text): text
        }
    }
}

