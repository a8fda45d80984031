import Networking
import Primitives
import AsyncHTTPClient
import Foundation
import NIOCore
import TrackingBeacons
import VAST
import XMLReading

/// Fetches wrapper targets and remote tags over HTTP(S) with async-http-client: every URL and redirect target
/// checked first (`GatedHTTPClient`), a deadline per request, redirects followed (at most 5), bodies capped at the
/// parser's size limit (a 50 MB "VAST" is cut off, not buffered) and decoded when compressed (gzip, deflate, br;
/// the limit applies again after decoding). Only http and https.
public final class HTTPTagFetcher: AdTagFetcher {
    /// Also follows media redirects (`MediaRedirects`): one pool for the session's tag-like requests.
    let client: GatedHTTPClient
    private let userAgent: String
    private let maxBytes: Int
    /// Sent as `Origin` with every request, as a web player's browser sends its page's (`lint`'s CORS check); nil
    /// sends none.
    private let origin: String?

    /// - Parameters:
    ///   - userAgent: sent as `User-Agent` with every request.
    ///   - maxBytes: the largest body accepted, before and after decoding.
    ///   - connectTimeout: how long a connection may take to establish; a refused one fails at once.
    ///   - gate: which URLs and redirect targets may be requested.
    ///   - proxy: the HTTP proxy, if any.
    ///   - clock: the network clock a fetch's timeout runs on (the one `TimeoutRace` times the resolution with).
    public init(userAgent: String, maxBytes: Int = ParserLimits.default.maxBytes, connectTimeout: Duration = .seconds(5),
                gate: URLGate = .open, proxy: ProxySettings = .direct, origin: String? = nil, clock: ContinuousClock) {
        var configuration = HTTPClient.Configuration()
        // Decoded here, under the tag's own size limit (async-http-client's decompressor has no brotli).
        configuration.decompression = .disabled
        // A refused connection or an untrusted certificate fails at once, not by retrying until the deadline
        // (async-http-client's default), which reported a self-signed tag as "no response within 8 s".
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .nanoseconds(max(1, connectTimeout.nanoseconds))
        client = GatedHTTPClient(gate: gate, configuration: configuration, proxy: proxy, clock: clock)
        self.userAgent = userAgent
        self.maxBytes = maxBytes
        self.origin = origin
    }

    /// Fetches `url` with a deadline of `timeout` for the whole request, and returns the decoded body with the URL it
    /// came from after redirects.
    /// - Throws: `VASTError` 301 (`wrapperTimeout`) when the request fails, times out or answers a non-2xx status; 300
    ///   (`wrapperGeneral`) when the gate refuses the URL; 100 (`xmlParse`) when the body is too large or cannot be
    ///   decoded.
    public func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        let answer: GatedHTTPClient.Answer
        do {
            answer = try await client.get(
                url.absoluteString,
                headers: [("User-Agent", userAgent), ("Accept", "application/xml, text/xml, */*"),
                          ("Accept-Encoding", ContentDecoding.accepted)] + (origin.map { [("Origin", $0)] } ?? []),
                timeout: timeout)
        } catch let refusal as GatedHTTPClient.Refusal {
            if case let .url(why) = refusal {
                throw VASTError(.wrapperGeneral, "\(url.absoluteString): \(why); not requested")
            }
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): \(HTTPBeaconTransport.describe(refusal))")
        } catch {
            // In words, as beacon records say it: "redirect cycle", "connection refused", "TLS handshake failed: …"
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): \(HTTPBeaconTransport.describe(error))")
        }
        let response = answer.response
        guard (200..<300).contains(Int(response.status.code)) else {
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): HTTP \(response.status.code)")
        }
        var body = ByteBuffer()
        do {
            for try await chunk in response.body {
                guard body.readableBytes + chunk.readableBytes <= maxBytes else {
                    // Leaving the loop drops the body stream, and async-http-client closes the connection: the
                    // rest of the response is never read.
                    throw VASTError(.xmlParse, "\(url.absoluteString): response larger than \(maxBytes) bytes")
                }
                var chunk = chunk
                body.writeBuffer(&chunk)
            }
        } catch let error as VASTError {
            throw error
        } catch {
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): \(HTTPBeaconTransport.describe(error)) while reading the body")
        }
        let data: Data
        do {
            data = try ContentDecoding.decode(Data(body.readableBytesView), contentEncoding: response.headers.first(name: "Content-Encoding"),
                                              maxBytes: maxBytes)
        } catch .tooLarge(let limit) {
            throw VASTError(.xmlParse, "\(url.absoluteString): response larger than \(limit) bytes once decoded")
        } catch .unsupported(let coding) {
            throw VASTError(.xmlParse, "\(url.absoluteString): served with Content-Encoding \(coding), which vplay does not decode")
        } catch .corrupt(let why) {
            throw VASTError(.xmlParse, "\(url.absoluteString): \(why)")
        }
        // After redirects the body comes from the last request's URL (relative MediaFile URLs resolve against it).
        return FetchedTag(data: data, finalURL: answer.url,
                          served: .init(contentType: response.headers.first(name: "Content-Type"),
                                        allowOrigin: response.headers.first(name: "Access-Control-Allow-Origin")))
    }

    /// Shuts the HTTP client down; call it once, when the session is over.
    public func shutdown() async { await client.shutdown() }
}
