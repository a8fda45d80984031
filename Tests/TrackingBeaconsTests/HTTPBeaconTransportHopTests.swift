import Foundation
import TestSupport
import Testing
@testable import Networking
@_spi(LiveParts) @testable import TrackingBeacons

/// What the real transport records of each request it makes (for the HAR), checked against what a loopback server
/// received and wrote: the headers on the wire, the status line's reason phrase, the size of each head, where the
/// time of a failed connection went.
@Suite(.hangLimit) struct HTTPBeaconTransportHopTests {
    static let userAgent = "vplay-test/1.0 (simulated iPhone)"

    static func server() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { target in
            switch target {
            case "/start?cb=1": .redirect(to: "/next")
            case "/next": .redirect(to: "/end", status: 301)
            case "/end": .respond(status: 200, headers: [.init("Content-Type", "image/gif"), .init("Set-Cookie", "uid=1; Path=/")], body: Data("GIF89a".utf8))
            case "/forbidden": .status(403)
            case "/limited": .status(429)
            case "/loop": .redirect(to: "/loop")
            default: .status(404)
            }
        }
    }

    @Test func redirects_eachRequestIsAHop_withTheHeadersOnTheWireTheStatusLineAndEachHeadsSize() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/start?cb=1", timeout: .seconds(300))
        await transport.shutdown()
        let hops = outcome.hops, received = server.requests()
        #expect(hops.map(\.url) == ["/start?cb=1", "/next", "/end"].map { server.baseURL + $0 })
        #expect(hops.map(\.status) == [302, 301, 200] && hops.map(\.reasonPhrase) == ["Found", "Moved Permanently", "OK"])
        #expect(received.count == 3)
        for (hop, request) in zip(hops, received) {
            #expect(hop.requestHeaders.map { [$0.name, $0.value] } == request.headers.map { [$0.name, $0.value] }, "every field sent, as sent")
            let head = "GET \(request.target) HTTP/1.1\r\n" + request.headers.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n"
            #expect(hop.requestHeadersSize == head.utf8.count)
            #expect(hop.httpVersion == "HTTP/1.1")
        }
        // As ScriptedHTTPServer writes them (keep-alive: no Connection field).
        #expect(hops[0].responseHeadersSize == "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n".utf8.count)
        #expect(hops[2].responseHeadersSize
                == "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nSet-Cookie: uid=1; Path=/\r\nContent-Length: 6\r\n\r\n".utf8.count)
        #expect(hops.map(\.bodySize) == [nil, nil, 6])
        #expect(hops[1].start >= hops[0].start + hops[0].wait && hops[2].start >= hops[1].start + hops[1].wait, "one after another")
        #expect(hops.allSatisfy { $0.connect == nil && $0.requested })
    }

    @Test func status403And429_keepTheReasonPhraseTheServerSent() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let forbidden = await transport.send(server.baseURL + "/forbidden", timeout: .seconds(300))
        let limited = await transport.send(server.baseURL + "/limited", timeout: .seconds(300))
        await transport.shutdown()
        #expect(forbidden.hops.map(\.reasonPhrase) == ["Forbidden"] && limited.hops.map(\.reasonPhrase) == ["Too Many Requests"])
        #expect(forbidden.hops.first?.bodySize == 0)
    }

    @Test func refusedConnection_isOneHop_whoseTimeWasSpentConnecting() async throws {
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send("http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/c", timeout: .seconds(300))
        await transport.shutdown()
        #expect(outcome.error == .connectionRefused)
        let hop = try #require(outcome.hops.first)
        #expect(outcome.hops.count == 1 && hop.status == nil && hop.responseHeadersSize == nil)
        #expect(hop.wait == .zero && hop.connect != nil, "no answer was waited for")
    }

    @Test func redirectCycle_endsWithTheTargetNotRequested() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/loop", timeout: .seconds(300))
        await transport.shutdown()
        #expect(outcome.error == .redirectCycle)
        #expect(outcome.hops.map(\.requested) == [true, false] && outcome.hops.map(\.status) == [302, nil])
        #expect(server.requests().count == 1)
    }

    @Test func hostField_hasThePortOnlyWhenNotTheSchemesDefault_andBracketsAnIPv6Address() throws {
        let host = { (url: String) in GatedHTTPClient.host(of: URL(string: url)!) }
        #expect(host("http://a.example/x") == "a.example" && host("https://a.example:443/x") == "a.example")
        #expect(host("http://a.example:8080/x") == "a.example:8080" && host("https://a.example:80/x") == "a.example:80")
        #expect(host("http://[::1]:8080/x") == "[::1]:8080")
    }
}
