import Foundation
import Testing
import TestSupport

/// `terminate` end to end (issue 44, item 3): the demo to the embedded sink over loopback, its first-quartile URL held
/// by the sink (`hang@/firstQuartile`), the app killed at 3 s. The other beacons are answered within the 3 s the
/// session had (on loopback they take milliseconds; a machine ten times slower still answers them in time), the held
/// one is lost with the app; nothing fires after the kill, and every line on stdout fits its schema.
@Suite(.hangLimit) struct TerminateTests {
    @Test func theAppKilledWithABeaconHeld_losesIt_andTheLinesFitTheirSchema() async throws {
        let folder = try TemporaryFolder()
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--sink-fault", "hang@/firstQuartile", "--script", "terminate@3", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        let lost = beacons.filter { $0["error"] as? String == "lost: the app was terminated before it was answered" }.compactMap { $0["event"] as? String }
        #expect(lost == ["firstQuartile"], "\(beacons)")
        #expect(!beacons.contains { ["midpoint", "complete", "closeLinear"].contains($0["event"] as? String) })
        let summary = try #require(run.lines.last)
        #expect(summary["ending"] as? String == "terminated", "\(summary)")
        #expect((summary["beacons"] as? [String: Any])?["lost"] as? Int == 1, "\(summary)")
        let lines = try folder.write("run.jsonl", run.stdout)
        let errors = try await JSONSchemaCheck.validate([.init(lines, schema: "events.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
    }
}
