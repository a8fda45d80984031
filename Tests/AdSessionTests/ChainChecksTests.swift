@testable import AdSession
import Findings
import Foundation
import Testing
import TestSupport
import VAST

/// `lint`'s checks of the chain as a player fetches it: each answer's CORS and Content-Type (over real HTTP on
/// loopback, the request carrying a web page's Origin), the chain's depth (a real chain of wrappers) and its time.
@Suite struct ChainChecksTests {
    static let inLine = #"<VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/i</Impression><Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"#

    static func wrapper(to url: String) -> String {
        #"<VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>s</AdSystem><Impression>http://127.0.0.1:9/wi</Impression><VASTAdTagURI><![CDATA["# + url + #"]]></VASTAdTagURI></Wrapper></Ad></VAST>"#
    }

    /// The tag's and the wrappers' findings. Not VPLAY-resolution-time: how long loopback takes is the machine's (a loaded
    /// one took 5 s); that rule's verdicts are tested on given times below.
    static func lintIDs(_ url: String, origin: String? = nil) async -> [Finding] {
        await lintAll(url, origin: origin).filter { $0.rule.hasPrefix("VPLAY-tag") || $0.rule.hasPrefix("VPLAY-wrapper") }
    }

    /// Every finding of the lint, errors included (to say why when the ones a test is about are missing).
    static func lintAll(_ url: String, origin: String? = nil) async -> [Finding] {
        var configuration = SessionConfiguration(tag: url)
        configuration.tagOrigin = origin
        // IMA's 8 s and 4 s a wrapper are the product's; a loaded test machine took longer over loopback.
        (configuration.resolver.firstRequestTimeout, configuration.resolver.wrapperTimeout, configuration.resolver.resolutionTimeout) = (.seconds(60), .seconds(60), .seconds(300))
        return await TagLint.lint(configuration, openMedia: false, policy: RulePolicy()).findings.map(\.finding)
    }

    @Test func eachAnswer_isCheckedForCORSAndContentType_asAWebPlayerAsks() async throws {
        let body = Data(Self.inLine.utf8)
        let server = try ScriptedHTTPServer { target in
            switch target {
            case "/open.xml": .respond(status: 200, headers: [.init("Content-Type", "application/xml; charset=utf-8"), .init("Access-Control-Allow-Origin", "*")], body: body)
            case "/html.xml": .respond(status: 200, headers: [.init("Content-Type", "text/html")], body: body)
            case "/vast.xml": .respond(status: 200, headers: [.init("Content-Type", "application/vast+xml"), .init("Access-Control-Allow-Origin", "https://publisher.example")], body: body)
            default: .status(404)
            }
        }
        defer { server.stop() }
        #expect(await Self.lintIDs(server.baseURL + "/open.xml").isEmpty)
        let html = await Self.lintIDs(server.baseURL + "/html.xml")
        #expect(html.map(\.rule) == ["VPLAY-tag-cors", "VPLAY-tag-content-type"], "\(html)")
        #expect(html.last?.message.contains("served as text/html") == true)
        let other = await Self.lintIDs(server.baseURL + "/vast.xml")
        #expect(other.map(\.rule) == ["VPLAY-tag-cors"] && other[0].message.contains("allows only https://publisher.example"), "\(other)")
        // Asked from the origin it allows, it passes; every request carried the Origin a browser would send.
        #expect(await Self.lintIDs(server.baseURL + "/vast.xml", origin: "https://publisher.example").isEmpty)
        let origins = server.requests().map { $0.header("Origin") }
        #expect(origins == [TagLint.defaultOrigin, TagLint.defaultOrigin, TagLint.defaultOrigin, "https://publisher.example"], "\(origins)")
    }

    /// The server's address, known once it listens; its wrappers name their targets by it.
    final class Address: @unchecked Sendable { var base = "" }

    @Test func aChainOfFiveWrappers_isTooDeepForIMA_fourIsNot() async throws {
        let address = Address()
        let server = try ScriptedHTTPServer { target in
            let headers: [ScriptedHTTPServer.Header] = [.init("Content-Type", "text/xml"), .init("Access-Control-Allow-Origin", "*")]
            // /wN.xml wraps /w(N-1).xml; /w0.xml is the InLine.
            guard target.hasPrefix("/w"), target.hasSuffix(".xml"), let n = Int(target.dropFirst(2).dropLast(4)) else { return .status(404) }
            let xml = n == 0 ? Self.inLine : Self.wrapper(to: "\(address.base)/w\(n - 1).xml")
            return .respond(status: 200, headers: headers, body: Data(xml.utf8))
        }
        address.base = server.baseURL
        defer { server.stop() }
        let all = await Self.lintAll(server.baseURL + "/w5.xml")
        let five = all.filter { $0.rule.hasPrefix("VPLAY-tag") || $0.rule.hasPrefix("VPLAY-wrapper") }
        #expect(five.map(\.rule) == ["VPLAY-wrapper-depth"] && five.first?.message.hasPrefix("the chain has 5 wrappers") == true,
                "\(all.map { "\($0.rule): \($0.message)" }); requests: \(server.requests().map(\.target))")
        #expect(await Self.lintIDs(server.baseURL + "/w4.xml").isEmpty)
        #expect(server.requests().count == 6 + 5, "every tag of both chains was fetched")
    }

    @Test func resolutionTime_perRequestAndInAll() {
        func hop(_ depth: Int, _ seconds: Double) -> ResolutionHop {
            ResolutionHop(depth: depth, url: "https://ads.example/\(depth)", outcome: .vast(adCount: 1), elapsed: .milliseconds(Int(seconds * 1000)), adSystems: [])
        }
        #expect(ChainChecks.findings([hop(0, 4.9), hop(1, 4.9)]).isEmpty, "each under 5 s; 9.8 s within iOS's 8 + 4 s")
        let slow = ChainChecks.findings([hop(0, 5.5)])
        #expect(slow.map(\.rule) == ["VPLAY-resolution-time"] && slow.first?.message.hasPrefix("hop 0 (https://ads.example/0) took 5.5 s") == true, "\(slow)")
        #expect(ChainChecks.findings([hop(0, 4.5), hop(1, 4.5), hop(2, 4.5)]).isEmpty, "13.5 s within 8 + 4 + 4 s")
        let over = ChainChecks.findings((0...4).map { hop($0, 4.9) })
        #expect(over.map(\.message) == ["resolving took 24.5 s in all; IMA iOS allows 24.0 s for 5 requests"], "\(over)")
        // A request that timed out is its own 301 error, not also a slow request.
        let timedOut = ResolutionHop(depth: 0, url: "https://ads.example/0", outcome: .failed(VASTError(.wrapperTimeout, "timed out")), elapsed: .seconds(8), adSystems: [])
        #expect(ChainChecks.findings([timedOut]).isEmpty)
    }

    @Test func servedAnswers_inEveryForm() {
        func check(_ type: String?, _ origin: String?) -> [String] {
            ServingRecorder.findings(url: "u", served: .init(contentType: type, allowOrigin: origin), origin: "https://p.example").map(\.rule)
        }
        #expect(check("text/xml", "*").isEmpty && check("application/xml;charset=UTF-8", " https://p.example ").isEmpty)
        #expect(check("application/vast+xml", "*").isEmpty)
        #expect(check(nil, "*") == ["VPLAY-tag-content-type"] && check("text/plain", "*") == ["VPLAY-tag-content-type"])
        #expect(check("text/xml", "null") == ["VPLAY-tag-cors"] && check("text/xml", nil) == ["VPLAY-tag-cors"])
    }
}
