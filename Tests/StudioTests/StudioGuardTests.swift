import Testing
@testable import Studio

/// Who may talk to the studio (pure logic; the browser test sends the same requests over HTTP).
@Suite struct StudioGuardTests {
    let guardian = StudioGuard(token: "t0ken", host: "127.0.0.1", port: 4780)

    @Test func theStudiosOwnNames_areAllowed_andOthersRefused() {
        for host in ["127.0.0.1:4780", "localhost:4780", "LOCALHOST:4780", "[::1]:4780"] {
            #expect(guardian.check(method: "GET", host: host, origin: nil, token: nil) == .allowed, "\(host)")
        }
        for host in ["attacker.example:4780", "127.0.0.1:80", "127.0.0.1", "", "localhost.attacker.example:4780"] {
            #expect(guardian.check(method: "GET", host: host, origin: nil, token: nil) != .allowed, "\(host)")
        }
        #expect(guardian.check(method: "GET", host: nil, origin: nil, token: nil) != .allowed, "HTTP/1.0 without Host")
    }

    @Test func aForeignOrigin_isRefused_evenWithTheToken() {
        #expect(guardian.check(method: "POST", host: "127.0.0.1:4780", origin: "http://127.0.0.1:4780", token: "t0ken") == .allowed)
        for origin in ["http://attacker.example", "null", "https://127.0.0.1:4780", "http://127.0.0.1:4781"] {
            #expect(guardian.check(method: "POST", host: "127.0.0.1:4780", origin: origin, token: "t0ken") != .allowed, "\(origin)")
            #expect(guardian.check(method: "GET", host: "127.0.0.1:4780", origin: origin, token: nil) != .allowed, "\(origin)")
        }
    }

    @Test func stateChangingMethods_needTheToken() {
        for method in ["POST", "DELETE", "PUT"] {
            #expect(guardian.check(method: method, host: "127.0.0.1:4780", origin: nil, token: nil) != .allowed)
            #expect(guardian.check(method: method, host: "127.0.0.1:4780", origin: nil, token: "t0kem") != .allowed)
            #expect(guardian.check(method: method, host: "127.0.0.1:4780", origin: nil, token: "t0ken") == .allowed)
        }
        #expect(guardian.check(method: "HEAD", host: "127.0.0.1:4780", origin: nil, token: nil) == .allowed)
    }

    @Test func aHostGivenOnTheCommandLine_isAnsweredToo() {
        let open = StudioGuard(token: "x", host: "0.0.0.0", port: 9)
        #expect(open.check(method: "GET", host: "0.0.0.0:9", origin: nil, token: nil) == .allowed)
        let six = StudioGuard(token: "x", host: "::1", port: 9)
        #expect(six.check(method: "GET", host: "[::1]:9", origin: "http://[::1]:9", token: nil) == .allowed)
    }

    @Test func tokens_areLongAndFresh() {
        let a = StudioGuard.makeToken(), b = StudioGuard.makeToken()
        #expect(a.count == 64 && a != b && a.allSatisfy(\.isHexDigit))
    }
}
