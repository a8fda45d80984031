import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 42, item 1 end to end: the built binary as the stitcher, its beacons to a real HTTP server over loopback
/// with the stitcher's User-Agent and the device's X-Device-* fields, and to the embedded sink, which checks them.
@Suite(.hangLimit) struct ServerSideTests {
    @Test func everyBeacon_carriesTheDevicesFields_fromTheStitcher() async throws {
        let server = try ScriptedHTTPServer { _ in .status(204) }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", """
            <VAST version="4.1"><Ad id="s"><InLine><AdSystem>s</AdSystem><AdTitle>s</AdTitle>
            <Impression><![CDATA[\(server.baseURL)/imp?ss=[SERVERSIDE]]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration><TrackingEvents>
            <Tracking event="firstQuartile"><![CDATA[\(server.baseURL)/q1]]></Tracking>
            <Tracking event="complete"><![CDATA[\(server.baseURL)/complete]]></Tracking>
            <Tracking event="pause"><![CDATA[\(server.baseURL)/pause]]></Tracking>
            </TrackingEvents><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let har = folder.url.appendingPathComponent("run.har").path
        let run = try await vplay(["--vast", tag, "--ssai", "server", "--segment", "2", "--forwarded-for", "--macro", "DEVICEUA=Roku/DVP-12.0 (12.0.0.4182)",
                                   "--script", "background@3,foreground@4", "--json", "--har", har,
                                   "--device-header", "Accept-Language=en-US", "--device-header", "Referer=https://app.example/"])
        #expect(run.status == 0, "\(run.stderr)")
        let requests = server.requests()
        #expect(Set(requests.map(\.target)) == ["/imp?ss=1", "/q1", "/complete"], "\(requests.map(\.target))")
        for request in requests {
            func field(_ name: String) -> String? { request.headers.first { $0.name.lowercased() == name.lowercased() }?.value }
            #expect(field("User-Agent")?.hasPrefix("vplay-stitcher/") == true, "\(request.headers)")
            #expect(field("X-Device-IP") == "203.0.113.7" && field("X-Forwarded-For") == "203.0.113.7", "\(request.headers)")
            #expect(field("X-Device-User-Agent") == "Roku/DVP-12.0 (12.0.0.4182)", "\(request.headers)")
            #expect(field("X-Device-Accept-Language") == "en-US" && field("X-Device-Referer") == "https://app.example/", "\(request.headers)")
        }
        let summary = try #require(run.lines.last)
        let serverSide = try #require(summary["serverSide"] as? [String: Any])
        let events = try #require(serverSide["events"] as? [[String: Any]])
        #expect(events.first { $0["event"] as? String == "firstQuartile" }?["serverClock"] as? Double == 2.0, "\(events)")
        #expect(events.first { $0["event"] as? String == "complete" }?["lead"] as? Double == 2.0, "\(events)")
        // The HAR (valid against HAR 1.2) shows what the stitcher sent: its User-Agent and the device's fields.
        let entries = try await HARValidation.validate(try Data(contentsOf: URL(fileURLWithPath: har)))
        #expect(entries.count == 3)
        for entry in entries {
            let headers = ((entry["request"] as? [String: Any])?["headers"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? ""): \($0["value"] ?? "")" }
            #expect(headers.contains("X-Device-IP: 203.0.113.7") && headers.contains("X-Device-User-Agent: Roku/DVP-12.0 (12.0.0.4182)"), "\(headers)")
        }
        let lines = folder.url.appendingPathComponent("run.jsonl").path
        try run.stdout.write(toFile: lines, atomically: true, encoding: .utf8)
        let errors = try await JSONSchemaCheck.validate([.init(lines, schema: "events.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func theSink_checksTheDevicesFieldsOnEveryHit() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--ssai", "server", "--prefetch", "2", "--sink", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let reconciliation = try #require(run.lines.first { $0["kind"] as? String == "reconciliation" })
        let device = try #require(reconciliation["device"] as? [String: Any])
        #expect(device["ip"] as? String == "203.0.113.7" && (device["wrong"] as? [String])?.isEmpty == true, "\(device)")
        #expect(device["checked"] as? Int == reconciliation["received"] as? Int && (device["checked"] as? Int ?? 0) > 0, "\(reconciliation)")
    }

    @Test func aFleetComparedBothWays_agreesWithItsOraclesAtTheSink_andReportsTheLeads() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("compare.json").path, junit = folder.url.appendingPathComponent("compare.xml").path
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "300", "--seed", "4", "--ssai", "compare", "--segment", "2",
                                   "--prefetch", "2", "--sink", "--report", report, "--junit", junit])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("client: sent what its oracle expected, the sink received every beacon sent"), "\(run.stdout)")
        #expect(run.stdout.contains("server: sent what its oracle expected, the sink received every beacon sent, every hit with the device's X-Device-* fields"), "\(run.stdout)")
        let errors = try await JSONSchemaCheck.validate([.init(report, schema: "fleet-ssai.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let events = try #require(document["events"] as? [[String: Any]])
        let complete = try #require(events.first { $0["event"] as? String == "complete" })
        // Every complete the stitcher counted beyond the player's was a view no one saw; each came ahead of the viewer.
        #expect((complete["serverSent"] as? Int ?? 0) - (complete["clientSent"] as? Int ?? 0) == complete["unseen"] as? Int, "\(complete)")
        #expect(complete["serverReceived"] as? Int == complete["serverSent"] as? Int && (complete["meanLead"] as? Double ?? 0) > 0, "\(complete)")
        let complaints = try await ExternalValidators.xmlSchema(try Data(contentsOf: URL(fileURLWithPath: junit)), xsd: "junit.xsd")
        #expect(complaints.isEmpty, "\(complaints)")
    }

    @Test func serverSideMode_refusesWhatItCannotTimeYet() async throws {
        let realtime = try await vplay(["--vast", "media/demo.xml", "--ssai", "server", "--clock", "realtime"])
        #expect(realtime.status == 2 && realtime.stderr.contains("--ssai server: runs on the virtual clock"), "\(realtime.stderr)")
        let vmap = try await vplay(["--vmap", "media/vmap/demo.xml", "--ssai", "server"])
        #expect(vmap.status == 2 && vmap.stderr.contains("not --vmap, --tracking-doc or --interstitials"), "\(vmap.stderr)")
        let header = try await vplay(["--vast", "media/demo.xml", "--ssai", "server", "--device-header", "X-Device-IP=10.0.0.1"])
        #expect(header.status == 2 && header.stderr.contains("--device-header X-Device-IP=10.0.0.1: expected NAME=VALUE"), "\(header.stderr)")
        let compare = try await vplay(["--vast", "media/demo.xml", "--ssai", "compare"])
        #expect(compare.status == 2 && compare.stderr.contains("run takes --ssai server"), "\(compare.stderr)")
    }
}
