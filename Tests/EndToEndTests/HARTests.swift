import Primitives
import Foundation
import Testing
import TestSupport

/// `vplay --har` over real loopback HTTP, as a HAR viewer reads it: valid against `schemas/har-1.2.schema.json`, an
/// entry per request with the server's reason phrase, each redirect hop its own entry, cookies, the request headers
/// the server received, and failed connections shown as browsers show them.
@Suite struct HARTests {
    /// The demo tag's beacons: the impression redirected once (the target setting a cookie), `start` refused with 403,
    /// `firstQuartile` with 429, everything else 200.
    static func server() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { target in
            let path = target.split(separator: "?").first.map(String.init) ?? target
            return switch path {
            case "/impression": .redirect(to: "/landed?from=impression")
            case "/landed": .respond(status: 200, headers: [.init("Content-Type", "image/gif"), .init("Set-Cookie", "uid=v1; Path=/; HttpOnly")],
                                     body: Data("GIF89a".utf8))
            case "/start": .status(403)
            case "/firstQuartile": .status(429)
            default: .respond(status: 200, headers: [], body: Data())
            }
        }
    }

    static func tag(_ folder: TemporaryFolder, beaconBase: String) throws -> String {
        let tag = try DemoTags.text(beaconBase: beaconBase)
        return try folder.write("tag.xml", tag)
    }

    static func path(_ entry: [String: Any]) -> String {
        URL(string: (entry["request"] as? [String: Any])?["url"] as? String ?? "")?.path ?? ""
    }

    @Test func har_overRealHTTP_showsReasonPhrasesRedirectHopsCookiesAndTheHeadersSent() async throws {
        let folder = try TemporaryFolder()
        let server = try Self.server()
        defer { server.stop() }
        let tag = try Self.tag(folder, beaconBase: server.baseURL)
        let har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", tag, "--json", "--har", har, "--now", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        let received = server.requests()
        #expect(entries.count == 13 && received.count == 13, "12 beacons, one redirected: 13 requests")
        let byPath = Dictionary(entries.map { (Self.path($0), $0) }, uniquingKeysWith: { first, _ in first })
        let response = { (path: String) in byPath[path]?["response"] as? [String: Any] ?? [:] }
        #expect(response("/start")["status"] as? Int == 403 && response("/start")["statusText"] as? String == "Forbidden")
        #expect(response("/firstQuartile")["status"] as? Int == 429 && response("/firstQuartile")["statusText"] as? String == "Too Many Requests")
        #expect(response("/impression")["status"] as? Int == 302 && response("/impression")["redirectURL"] as? String == "/landed?from=impression")
        #expect(response("/landed")["status"] as? Int == 200)
        let cookies = try #require(response("/landed")["cookies"] as? [[String: Any]])
        #expect(cookies.count == 1 && cookies[0]["name"] as? String == "uid" && cookies[0]["value"] as? String == "v1" && cookies[0]["httpOnly"] as? Bool == true)
        let hops = [byPath["/impression"], byPath["/landed"]].map { ($0?["_vplay"] as? [String: Any])?["hop"] as? Int }
        #expect(hops == [0, 1])
        #expect((byPath["/landed"]?["_vplay"] as? [String: Any])?["event"] as? String == "impression")
        // The request headers are what the server received, field for field.
        for request in received {
            let path = request.target.split(separator: "?").first.map(String.init) ?? ""
            let sent = (byPath[path]?["request"] as? [String: Any])?["headers"] as? [[String: String]]
            #expect(sent == request.headers.map { ["name": $0.name, "value": $0.value] }, "\(path)")
        }
    }

    /// Only a process shows the HAR file it writes when a closed loopback port refuses every beacon.
    @Test func har_refusedConnections_areStatus0WithTheError_andTheirTimeIsNotAWait() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.tag(folder, beaconBase: "http://127.0.0.1:\(ScriptedHTTPServer.closedPort())")
        let har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", tag, "--json", "--har", har, "--now", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        #expect(entries.count == 12)
        for entry in entries {
            let response = try #require(entry["response"] as? [String: Any])
            #expect(response["status"] as? Int == 0 && response["statusText"] as? String == "" && response["_error"] as? String == "connection refused")
            let timings = try #require(entry["timings"] as? [String: Double])
            #expect(timings["wait"] == 0 && (timings["connect"] ?? -1) >= 0, "\(timings)")
        }
    }

    /// Only the binary with its embedded sink shows the sink's real answers and Host header in the HAR file.
    @Test func har_withTheSink_showsTheSinksAnswers_andTheHeadersSentToIt() async throws {
        let folder = try TemporaryFolder()
        let har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--sink-fault", "403@/start", "--sink-fault", "429@/firstQuartile",
                                   "--json", "--har", har, "--now", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        let byPath = Dictionary(entries.map { (Self.path($0), $0) }, uniquingKeysWith: { first, _ in first })
        let start = try #require(byPath["/start"]?["response"] as? [String: Any]), quartile = try #require(byPath["/firstQuartile"]?["response"] as? [String: Any])
        #expect(start["status"] as? Int == 403 && start["statusText"] as? String == "Forbidden")
        #expect(quartile["status"] as? Int == 429 && quartile["statusText"] as? String == "Too Many Requests")
        for entry in entries {
            let request = try #require(entry["request"] as? [String: Any])
            let url = try #require(URL(string: request["url"] as? String ?? ""))
            let headers = try #require(request["headers"] as? [[String: String]])
            #expect(headers.first == ["name": "Host", "value": "127.0.0.1:\(url.port ?? 0)"], "the sink's address, as sent")
            #expect(url.port != 8089 && ((entry["_vplay"] as? [String: Any])?["beaconURL"] as? String)?.hasPrefix("http://127.0.0.1:8089/") == true)
            #expect((entry["response"] as? [String: Any])?["headersSize"] as? Int ?? 0 > 0)
        }
    }
}
