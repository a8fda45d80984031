import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Primitives

/// async-http-client with every URL it requests checked first (`URLGate`), redirect targets included: redirects are
/// followed here, one hop at a time, not by the client (whose own redirect handling would connect to a `Location`
/// nobody checked — `http://127.0.0.1:99999/` traps inside SwiftNIO, and a private address is reached unasked).
/// The one way vplay's tag fetches and beacons go out.
public struct GatedHTTPClient: Sendable {
    /// The client for requests that go direct.
    public let client: HTTPClient
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
        case tooManyRedirects
        case redirectCycle
    }

    public struct Answer: Sendable {
        public var response: HTTPClientResponse
        /// The URL the final response came from.
        public var url: URL
        /// URLs requested after the first, in order.
        public var redirects: [String]
    }

    /// A client with `configuration`'s settings, redirects turned off (they are followed here).
    public init(gate: URLGate, configuration: HTTPClient.Configuration, proxy: ProxySettings = .direct) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
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
    /// requested. Throws `Refusal` or the client's error.
    public func get(_ url: String, headers: [(String, String)], deadline: NIODeadline) async throws -> Answer {
        var current: RequestURL
        do { current = try gate.check(url) } catch { throw Refusal.url(error) }
        var visited: Set<String> = [current.url.absoluteString]
        var redirects: [String] = []
        while true {
            var request = HTTPClientRequest(url: current.url.absoluteString)
            request.method = .GET
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await client(for: current.url).execute(request, deadline: deadline)
            guard [301, 302, 303, 307, 308].contains(Int(response.status.code)),
                  let location = response.headers.first(name: "Location") else {
                return Answer(response: response, url: current.url, redirects: redirects)
            }
            // The redirect's own body is not read: dropping it closes that connection, and a body that stalls or
            // never ends cannot hold the chain up.
            let next: RequestURL
            do { next = try gate.check(location, relativeTo: current.url) } catch {
                throw Refusal.redirect(target: String(location.prefix(2048)), error)
            }
            guard visited.insert(next.url.absoluteString).inserted else { throw Refusal.redirectCycle }
            guard redirects.count < Self.maxRedirects else { throw Refusal.tooManyRedirects }
            redirects.append(next.url.absoluteString)
            current = next
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
        for client in proxied.values { try? await client.shutdown() }
    }
}
