import AdSession
import Findings
import Foundation
import Networking
import Testing
import TestSupport

/// `lint --probe-beacons` over real HTTP and HTTPS on loopback: each tracking URL requested once with its macros
/// filled, its answer judged; Error URLs never requested.
@Suite struct BeaconProbeTests {
    static func tag(plain: String, secure: String) -> String {
        """
        <VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
        <Impression><![CDATA[\(plain)/ok?cb=[CACHEBUSTING]]]></Impression>
        <Error><![CDATA[\(plain)/error?code=[ERRORCODE]]]></Error>
        <Creatives><Creative><Linear><Duration>00:00:10</Duration><TrackingEvents>
        <Tracking event="start"><![CDATA[\(plain)/missing]]></Tracking>
        <Tracking event="firstQuartile"><![CDATA[\(secure)/hop]]></Tracking>
        <Tracking event="midpoint"><![CDATA[\(plain)/ok?m=[CACHEBUSTING]]]></Tracking>
        <Tracking event="complete"><![CDATA[\(plain)/slow]]></Tracking>
        </TrackingEvents><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">\(plain)/m.mp4</MediaFile></MediaFiles>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    @Test func eachTrackingURL_isRequestedOnce_andItsAnswerJudged() async throws {
        let plain = try ScriptedHTTPServer { target in
            switch target.split(separator: "?").first.map(String.init) ?? target {
            case "/ok": .status(200)
            case "/slow": .trickle(Data("x".utf8), every: .milliseconds(1500), contentType: "image/gif")
            default: .status(404)
            }
        }
        defer { plain.stop() }
        let secure = try ScriptedHTTPServer(replies: [.redirect(to: plain.baseURL + "/ok")], tls: true)
        defer { secure.stop() }
        let folder = try TemporaryFolder()
        var configuration = SessionConfiguration(tag: try folder.write("tag.xml", Self.tag(plain: plain.baseURL, secure: secure.baseURL)))
        configuration.proxy = try ProxySettings.direct.trusting(caFile: try folder.write("ca.pem", TestCertificate.certificatePEM))
        // The product's 5 s beacon and 8 s tag timeouts are a player's; a loaded test machine took longer over loopback.
        configuration.beaconPolicy.timeout = .seconds(60)
        (configuration.resolver.firstRequestTimeout, configuration.resolver.resolutionTimeout) = (.seconds(60), .seconds(300))
        let lint = await TagLint.lint(configuration, openMedia: false, probeBeacons: true, policy: RulePolicy())
        // Slowness is asserted only where the server made it (1.5 s before its answer ends): on a loaded machine a
        // loopback answer may take seconds too, so the others' VPLAY-beacon-slow is left out.
        let all = lint.findings.map(\.finding).filter { $0.rule.hasPrefix("VPLAY-beacon") }
        #expect(all.contains { $0.rule == "VPLAY-beacon-slow" && $0.message.hasPrefix("complete \(plain.baseURL)/slow took ") }, "\(all)")
        let probes = all.filter { $0.rule != "VPLAY-beacon-slow" }
        #expect(probes.map(\.rule) == ["VPLAY-beacon-status", "VPLAY-beacon-redirect-http"], "\(probes)")
        #expect(probes.first?.message == "start \(plain.baseURL)/missing answered HTTP 404", "\(probes)")
        #expect(probes.dropFirst().first?.message == "firstQuartile \(secure.baseURL)/hop redirects to plain http: \(plain.baseURL)/ok", "\(probes)")
        let targets = plain.requests().map(\.target)
        #expect(!targets.contains { $0.hasPrefix("/error") }, "an Error URL is never probed: \(targets)")
        #expect(targets.filter { $0.hasPrefix("/ok") }.count == 3, "the impression and midpoint once each, the redirect's target once: \(targets)")
        #expect(targets.allSatisfy { !$0.contains("[CACHEBUSTING]") }, "macros are filled: \(targets)")
        #expect(secure.requests().count == 1)
    }

    @Test func withoutTheFlag_nothingIsRequested() async throws {
        let plain = try ScriptedHTTPServer(replies: [.status(200)])
        defer { plain.stop() }
        let folder = try TemporaryFolder()
        let configuration = SessionConfiguration(tag: try folder.write("tag.xml", Self.tag(plain: plain.baseURL, secure: "https://127.0.0.1:9")))
        let lint = await TagLint.lint(configuration, openMedia: false, policy: RulePolicy())
        #expect(!lint.findings.contains { $0.finding.rule.hasPrefix("VPLAY-beacon") })
        #expect(plain.requests().isEmpty)
    }
}
