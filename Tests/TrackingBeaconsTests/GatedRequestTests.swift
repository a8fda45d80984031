import Foundation
import Networking
import TestSupport
import Testing
@_spi(LiveParts) @testable import TrackingBeacons

/// Every beacon URL and every redirect target passes `URLGate` before async-http-client sees it. Before, a tracking
/// URL or a `302 Location` with a port beyond 65535 and an IP-literal host trapped inside SwiftNIO and killed the
/// process (exit 132): any ad or beacon server could crash vplay remotely.
@Suite(.hangLimit) struct GatedRequestTests {
    static let userAgent = "vplay-test/1.0"

    static func server() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { target in
            switch target {
            case "/to-bad-port": .redirect(to: "http://127.0.0.1:99999/x")
            case "/to-bad-v6-port": .redirect(to: "http://[::1]:4294967296/")
            case "/to-file": .redirect(to: "file:///etc/passwd")
            case "/to-metadata": .redirect(to: "http://169.254.169.254/latest/meta-data/")
            case "/to-ok": .redirect(to: "/ok", status: 307)
            case "/ok": .respond(status: 200, headers: [], body: Data("GIF89a".utf8))
            default: .status(404)
            }
        }
    }

    @Test(arguments: ["http://127.0.0.1:99999/x", "http://[::1]:4294967296/", "https://127.0.0.1:99999", "http://:80/x"])
    func urlThatCannotBeRequested_isAFailedBeacon_notACrash(_ url: String) async throws {
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(url, timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == nil && !outcome.delivered)
        #expect(outcome.error?.code == "invalidURL", "\(String(describing: outcome.error))")
        #expect(outcome.error?.description.hasPrefix("invalid URL") == true)
        #expect(!outcome.failedBeforeSending, "refused again on a retry: never retried")
    }

    @Test(arguments: [("/to-bad-port", "port 99999"), ("/to-bad-v6-port", "port 4294967296"), ("/to-file", "scheme file")])
    func redirectToAURLThatCannotBeRequested_isNotFollowed(_ path: String, _ reason: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + path, timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == nil && !outcome.delivered)
        guard case let .redirectRefused(_, refusal) = outcome.error else {
            Issue.record("expected a refused redirect, got \(String(describing: outcome.error))")
            return
        }
        #expect(refusal.description.contains(reason), "\(refusal)")
        #expect(outcome.error?.code == "invalidURL")
        #expect(server.requests().map(\.target) == [path], "only the first request went out")
    }

    /// Not a timing test: the limits are long, so a test process starved by the parallel suite still follows the chain.
    @Test func redirectsThatPass_areFollowedAndRecorded() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, connectTimeout: .seconds(60), clock: ContinuousClock())
        let outcome = await transport.send(server.baseURL + "/to-ok", timeout: .seconds(120))
        await transport.shutdown()
        #expect(outcome.status == 200 && outcome.error == nil)
        #expect(outcome.redirects == [server.baseURL + "/ok"])
        #expect(server.requests().map(\.target) == ["/to-ok", "/ok"])
    }

    @Test func denyPrivateNetworks_refusesPrivateTargetsAndRedirects_loopbackStillAllowed() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let gate = URLGate(policy: AddressPolicy(denyPrivate: true), resolve: { _ in nil })
        let transport = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock(), gate: gate)
        let direct = await transport.send("http://10.255.255.1/impression", timeout: .seconds(120))
        let redirected = await transport.send(server.baseURL + "/to-metadata", timeout: .seconds(120))
        let allowed = await transport.send(server.baseURL + "/ok", timeout: .seconds(120))
        await transport.shutdown()
        #expect(direct.error == .refused(.deniedAddress(host: "10.255.255.1", address: "10.255.255.1", range: .privateNetwork)))
        #expect(direct.error?.code == "addressDenied")
        guard case let .redirectRefused(target, .deniedAddress(_, _, range)) = redirected.error else {
            Issue.record("expected a denied redirect, got \(String(describing: redirected.error))")
            return
        }
        #expect(target == "http://169.254.169.254/latest/meta-data/" && range == .linkLocal)
        #expect(allowed.status == 200, "loopback is allowed without --deny-loopback")

        let strict = HTTPBeaconTransport(userAgent: Self.userAgent, clock: ContinuousClock(),
                                         gate: URLGate(policy: AddressPolicy(denyPrivate: true, denyLoopback: true), resolve: { _ in nil }))
        let loopback = await strict.send(server.baseURL + "/ok", timeout: .seconds(120))
        await strict.shutdown()
        #expect(loopback.error?.code == "addressDenied")
        #expect(server.requests().map(\.target) == ["/to-metadata", "/ok"], "nothing reached a refused address")
    }
}
