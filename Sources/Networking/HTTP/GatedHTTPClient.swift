import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import NIOHTTP1

/// async-http-client with every URL it requests checked first (`URLGate`), redirect targets included: redirects are
/// followed here, one hop at a time, not by the client (whose own redirect handling would connect to a `Location`
/// nobody checked — `http://127.0.0.1:99999/` traps inside SwiftNIO, and a private address is reached unasked).
/// The one way vplay's tag fetches and beacons go out.
public struct GatedHTTPClient: Sendable {
    /// The client for requests that go direct.
    public let client: HTTPClient
    /// Checks the URL of every request and every redirect target before it is requested.
    public let gate: URLGate
    /// Which requests go through a proxy (`--proxy`, `HTTP_PROXY`…), and a client per proxy (the same settings,
    /// with `proxy` set): each hop of a redirect chain is routed on its own URL.
    public let proxy: ProxySettings
    private let proxied: [ProxySettings.Endpoint: HTTPClient]
    /// Redirects followed at most (as before: a tag or beacon bouncing further is broken, and a loop must end).
    public static let maxRedirects = 5

    /// Why a request was not completed by the gate's rules (the client's own errors pass through unchanged).
    public enum Refusal: Error, Sendable, Equatable {
        /// The URL asked for is refused (never requested).
        case url(URLRefusal)
        /// A response redirected to `target`, which is refused (not followed).
        case redirect(target: String, URLRefusal)
        /// A response redirected after `maxRedirects` redirects already followed.
        case tooManyRedirects
        /// A response redirected to a URL already requested.
        case redirectCycle
    }

    /// The final response of a request, after its redirects were followed.
    public struct Answer: Sendable {
        /// The final response; its body is still to be read.
        public var response: HTTPClientResponse
        /// The URL the final response came from.
        public var url: URL
        /// URLs requested after the first, in order.
        public var redirects: [String]
    }

    /// Whether redirects are followed (through the gate); when not, a redirect is the answer.
    public let followsRedirects: Bool
    /// What a request's deadline and each hop's times are read on: the caller's network clock. The event loops are
    /// told only how long is left.
    public let clock: ContinuousClock

    /// A client with `configuration`'s settings, redirects turned off (they are followed here, unless
    /// `followsRedirects` is false: `vplay reward-check` sends its signed cases to the endpoint it was given and to
    /// no other origin).
    public init(gate: URLGate, configuration: HTTPClient.Configuration, proxy: ProxySettings = .direct, followsRedirects: Bool = true,
                clock: ContinuousClock) {
        self.followsRedirects = followsRedirects
        self.clock = clock
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        if let extra = proxy.extraCAFile {
            // `--ca-cert`: trusted besides the system's roots, not instead of them.
            var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
            tls.additionalTrustRoots.append(.file(extra))
            configuration.tlsConfiguration = tls
        }
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.gate = gate
        self.proxy = proxy
        var proxied: [ProxySettings.Endpoint: HTTPClient] = [:]
        for endpoint in Set([proxy.http, proxy.https].compactMap { $0 }) {
            var through = configuration
            through.proxy = .server(host: endpoint.host, port: endpoint.port)
            proxied[endpoint] = HTTPClient(eventLoopGroupProvider: .singleton, configuration: through)
        }
        self.proxied = proxied
    }

    /// The client that requests `url`: through its proxy, or direct.
    public func client(for url: URL) -> HTTPClient {
        proxy.endpoint(for: url).flatMap { proxied[$0] } ?? client
    }

    /// GETs `url` with `headers`, following up to `maxRedirects` redirects, each target checked before it is
    /// requested, all within `timeout` from now on `clock`. Throws `Refusal` or the client's error.
    public func get(_ url: String, headers: [(String, String)], timeout: Duration) async throws -> Answer {
        var hops: [BeaconHop] = []
        return try await get(url, headers: headers, until: clock.now.advanced(by: timeout), hops: &hops)
    }

    /// `get(_:headers:timeout:)` until `deadline` on `clock`, recording each request in `hops` as it is made (also
    /// when it throws): the headers sent (`Host` first, then `headers`, exactly as written), the answer's status line
    /// and headers, and when on `clock` it started and got its head. A redirect target that is not requested
    /// (refused, a cycle, one too many) is recorded as not `requested`. The last hop's body is the caller's to read
    /// (and time).
    public func get(_ url: String, headers: [(String, String)], until deadline: ContinuousClock.Instant,
                    hops: inout [BeaconHop]) async throws -> Answer {
        let clock = self.clock, started = clock.now
        func since(_ start: ContinuousClock.Instant) -> Duration { start.duration(to: clock.now) }
        var current: RequestURL
        do { current = try gate.check(url) } catch { throw Refusal.url(error) }
        var visited: Set<String> = [current.url.absoluteString]
        var redirects: [String] = []
        while true {
            var request = HTTPClientRequest(url: current.url.absoluteString)
            request.method = .GET
            // Host as async-http-client would add it, set here so the record holds every field sent.
            let sent = [HeaderField(name: "Host", value: Self.host(of: current.url))]
                + headers.map { HeaderField(name: $0.0, value: $0.1) }
            for field in sent { request.headers.add(name: field.name, value: field.value) }
            let hopStart = clock.now
            var hop = BeaconHop(url: current.url.absoluteString, requestHeaders: sent,
                                requestHeadersSize: BeaconHop.headSize(firstLine: "GET \(Self.target(of: current.url)) HTTP/1.1", headers: sent),
                                start: started.duration(to: hopStart))
            // What is left of the request's time, for this hop: the event loop is told only how long.
            let left = TimeAmount(hopStart.duration(to: deadline))
            let response: HTTPClientResponse
            do {
                if current.scheme == "http", let endpoint = proxy.endpoint(for: current.url) {
                    // Plain HTTP through a forward proxy: in absolute form, as curl sends it (no CONNECT tunnel).
                    response = try await ForwardProxyRequest.get(current.url, through: endpoint, headers: sent.map { ($0.name, $0.value) },
                                                                 timeout: left)
                } else {
                    response = try await client(for: current.url).execute(request, timeout: left)
                }
            } catch {
                hop.wait = since(hopStart)
                hops.append(hop)
                throw error
            }
            hop.wait = since(hopStart)
            hop.status = Int(response.status.code)
            hop.reasonPhrase = response.status.reasonPhrase
            hop.httpVersion = "HTTP/\(response.version.major).\(response.version.minor)"
            hop.responseHeaders = response.headers.map { HeaderField(name: $0.name, value: $0.value) }
            hop.responseHeadersSize = BeaconHop.headSize(firstLine: "\(hop.httpVersion) \(response.status.code) \(hop.reasonPhrase)",
                                                         headers: hop.responseHeaders)
            guard followsRedirects, [301, 302, 303, 307, 308].contains(Int(response.status.code)),
                  let location = response.headers.first(name: "Location") else {
                hops.append(hop)
                return Answer(response: response, url: current.url, redirects: redirects)
            }
            // The redirect's own body is not read: dropping it closes that connection, and a body that stalls or
            // never ends cannot hold the chain up.
            hops.append(hop)
            let next: RequestURL
            do { next = try gate.check(location, relativeTo: current.url) } catch {
                hops.append(BeaconHop(url: String(location.prefix(2048)), requested: false, start: since(started)))
                throw Refusal.redirect(target: String(location.prefix(2048)), error)
            }
            let refusal: Refusal? = !visited.insert(next.url.absoluteString).inserted ? .redirectCycle
                : redirects.count >= Self.maxRedirects ? .tooManyRedirects : nil
            if let refusal {
                hops.append(BeaconHop(url: next.url.absoluteString, requested: false, start: since(started)))
                throw refusal
            }
            redirects.append(next.url.absoluteString)
            current = next
        }
    }

    /// The `Host` field for `url`: its host, with the port when it is not the scheme's default.
    static func host(of url: URL) -> String {
        let host = url.host.map { $0.contains(":") && !$0.hasPrefix("[") ? "[\($0)]" : $0 } ?? ""
        guard let port = url.port, port != (url.scheme?.lowercased() == "https" ? 443 : 80) else { return host }
        return "\(host):\(port)"
    }

    /// The request target: the path (at least `/`) and the query, as encoded in `url`.
    static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// Shuts down the direct client and every proxy client.
    public func shutdown() async {
        try? await client.shutdown()
        for client in proxied.values { try? await client.shutdown() }
    }
}
