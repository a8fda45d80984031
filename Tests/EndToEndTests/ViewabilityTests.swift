import Foundation
import Testing
import TestSupport

/// Issue 18 end to end, what only the binary against real servers shows: the three `verificationNotExecuted` reasons
/// on the repo's media/viewability.xml (its script URLs served by a loopback server that answers 404 for one), and a
/// fleet's viewable counts against the oracle's, received by the sink. The MRC rule and the OM SDK log against its
/// golden file are `ViewabilityBehaviourTests`, in process.
@Suite(.hangLimit) struct ViewabilityEndToEndTests {
    func json(_ arguments: [String]) async throws -> (status: Int32, lines: [[String: Any]], stderr: String) {
        let run = try await vplay(arguments + ["--json"])
        return (run.status, run.lines, run.stderr)
    }

    /// Only the binary against a real server shows which verification scripts are fetched (`--verification-probe`).
    @Test func verificationReasons_1_2_and3_onTheRepoTag() async throws {
        let server = try ScriptedHTTPServer { target in
            switch target {
            case "/omid/allowed.js", "/omid/legacy.js", "/omid/other.js": return .body(Data("/* omid */".utf8), contentType: "application/javascript")
            case "/omid/missing.js": return .status(404)
            default: return .status(204)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("viewability.xml"), encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8089", with: server.baseURL)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
            .replacingOccurrences(of: "</AdVerifications>\n      <Creatives>", with: """
                <Verification vendor="malformed.example-omid">
                  <JavaScriptResource apiFramework="omid"><![CDATA[http://[::1/oops.js]]></JavaScriptResource>
                  <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[\(server.baseURL)/vne?vendor=malformed&reason=[REASON]]]></Tracking></TrackingEvents>
                </Verification>
                </AdVerifications>
                      <Creatives>
                """)
        #expect(text.contains("malformed.example-omid"))
        let tag = try folder.write("viewability.xml", text)
        let run = try await json(["--vast", tag, "--verification-probe",
                                  "--verification-allow", "allowed.example-omid,broken.example-omid,legacy.example-omid,malformed.example-omid"])
        #expect(run.status == 0, "\(run.stderr)")
        let reasons = Dictionary(uniqueKeysWithValues: run.lines.filter { $0["kind"] as? String == "beacon" && $0["event"] as? String == "verificationNotExecuted" }
            .compactMap { $0["url"] as? String }.compactMap { url -> (String, String)? in
                guard let query = URLComponents(string: url)?.queryItems, let vendor = query.first(where: { $0.name == "vendor" })?.value,
                      let reason = query.first(where: { $0.name == "reason" })?.value else { return nil }
                return (vendor, reason)
            })
        #expect(reasons == ["allowed": "2", "broken": "3", "other": "1", "legacy": "2", "malformed": "3"], "\(reasons)")
        let probed = server.requests().map(\.target).filter { $0.hasPrefix("/omid/") }
        #expect(Set(probed) == ["/omid/allowed.js", "/omid/missing.js", "/omid/legacy.js"], "a rejected vendor is not fetched: \(probed)")
        // Without the options it is reason 2 for all: `ViewabilityBehaviourTests`, in process.
    }

    /// Only the binary with its embedded sink shows a fleet's viewable and notViewable beacons received over HTTP.
    @Test func aFleet_countsViewableAsTheOracleSays() async throws {
        let run = try await vplay(["fleet", "--vast", "media/viewability.xml", "--sessions", "150", "--sink", "--json",
                                   "--mix", "complete:2,background:2,pause:2,click:2,skip:2,close:2"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["sentAsExpected"] as? Bool == true && checks["receivedAsSent"] as? Bool == true, "\(checks)")
        let population = try #require(report["population"] as? [String: Any])
        let view = try #require(population["viewability"] as? [String: Any])
        let viewable = try #require(view["viewable"] as? Int), notViewable = try #require(view["notViewable"] as? Int)
        #expect(viewable + notViewable == 150 && viewable > 0 && notViewable > 0, "\(view)")
        #expect(abs((view["rate"] as? Double ?? 0) - Double(viewable) / 150) < 1e-9)
        let beacons = try #require(population["beacons"] as? [[String: Any]])
        let rows = beacons.filter { $0["event"] as? String == "viewable" || $0["event"] as? String == "notViewable" }
        #expect(rows.map { $0["expected"] as? Int } == [viewable, notViewable] && rows.allSatisfy { $0["sent"] as? Int == $0["expected"] as? Int })
    }
}
