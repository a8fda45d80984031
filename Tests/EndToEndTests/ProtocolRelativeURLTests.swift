import AdSession
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import vplay

/// Issue 15 item 4, end to end over loopback: a protocol-relative tracking URL in a tag served over http is requested
/// over http and reaches the server; a URL that is not absolute (`you_shall_not_path`) is warned about once and never
/// sent, so it is not a failed beacon.
@Suite(.hangLimit) struct ProtocolRelativeURLTests {
    /// Only the binary against a real loopback tag server shows protocol-relative beacons sent over http to it.
    @Test func protocolRelativeBeacons_reachTheServer_relativeOnesAreWarnedNotFailed() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let box = TagBox()
        let server = try ScriptedHTTPServer { target in
            if target == "/tag.xml" { return .body(Data(box.text.withLock { $0 }.utf8), contentType: "application/xml") }
            if target == "/clip.mp4" { return .file(clip) }
            return .status(204)
        }
        defer { server.stop() }
        let authority = server.baseURL.replacingOccurrences(of: "http:", with: "")
        box.text.withLock {
            $0 = """
                <VAST version="4.1"><Ad id="pr"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
                <Impression><![CDATA[\(authority)/imp?cb=[CACHEBUSTING]]]></Impression>
                <Impression><![CDATA[you_shall_not_path]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:05</Duration>
                <TrackingEvents><Tracking event="complete"><![CDATA[you_shall_not_path]]></Tracking>
                <Tracking event="start"><![CDATA[\(authority)/start]]></Tracking></TrackingEvents>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
                </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
                """
        }
        let run = try await vplay(["--vast", "\(server.baseURL)/tag.xml", "--json"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        // Beacon lines come as their answers do: compared as a set.
        #expect(Set(beacons.compactMap { $0["event"] as? String }) == ["impression", "start"] && beacons.count == 2, "\(beacons)")
        #expect(beacons.allSatisfy { ($0["url"] as? String)?.hasPrefix(server.baseURL) == true && $0["status"] as? Int == 204 })
        let targets = server.requests().map(\.target)
        #expect(targets.contains { $0.hasPrefix("/imp?cb=") } && targets.contains("/start"), "\(targets)")
        let warnings = run.lines.filter { $0["kind"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.filter { $0.contains("you_shall_not_path") }.count == 1, "\(warnings)")
        let summary = try #require(run.lines.last)
        #expect((summary["beacons"] as? [String: Any])?["failed"] as? Int == 0)

        // What inspect says of the same served tag, in process on the live environment (the text is InspectRendering's).
        let inspection = await AdInspector(configuration: SessionConfiguration(tag: "\(server.baseURL)/tag.xml")).inspect(openMedia: true)
        let inspected = InspectRendering.text(inspection)
        #expect(inspected.contains("you_shall_not_path") && inspected.contains("not absolute"), "\(inspected)")
    }
}

/// The tag a server returns, written once its port is known.
private final class TagBox: Sendable {
    let text = Mutex("")
}
