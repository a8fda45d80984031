import Foundation
import Testing
import TestSupport

/// `fleet --threshold` end to end (issue 43, item 2): a fleet to the embedded sink whose thresholds hold exits 0, one
/// that fails exits 99 (k6's code) with one line on stderr; each threshold is a JUnit case (the schema's JUnit) and in
/// the report (its JSON schema).
@Suite(.hangLimit) struct FleetThresholdTests {
    @Test func thresholdsThatHold_exit0_andOneThatFails_exits99_eachAJUnitCase() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("fleet.json").path, junit = folder.url.appendingPathComponent("fleet.xml").path
        let holding = ["received/sent>=0.999", "event=firstQuartile:received/expected>=0.99", "url=/midpoint:delivered/sent==1"]
        let passed = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "100", "--seed", "5", "--sink", "--report", report, "--junit", junit]
                                     + FleetEndToEndTests.patient + holding.flatMap { ["--threshold", $0] })
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(passed.stdout.contains("threshold  ok   received/sent>=0.999: 1"), "\(passed.stdout)")
        #expect(try await JSONSchemaCheck.validate([.init(report, schema: "fleet-report.schema.json")]).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect((document["thresholds"] as? [[String: Any]])?.map { $0["passed"] as? Bool } == [true, true, true])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(holding.allSatisfy { xml.contains("threshold \($0.replacingOccurrences(of: ">", with: "&gt;"))") }, "\(xml.prefix(2000))")
        #expect(try await ExternalValidators.xmlSchema(Data(xml.utf8), xsd: "junit.xsd").isEmpty)

        let failed = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "100", "--seed", "5", "--sink", "--junit", junit]
                                     + FleetEndToEndTests.patient + [
                                      "--threshold", "received/sent>=0.999", "--threshold", "event=complete:sent/expected>1"])
        #expect(failed.status == 99, "\(failed.stderr)")
        #expect(failed.stderr == "vplay: error: threshold failed: event=complete:sent/expected>1: 1, not > 1 (exit 99)\n", "\(failed.stderr)")
        let failedXML = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(failedXML.contains("failures=\"1\"") || failedXML.contains("<failure"), "\(failedXML.prefix(2000))")
    }

    /// `--abort-on-fail`: a count breached for good stops a fleet of 20,000 early, exit 99 with one line on stderr; the
    /// report (its schema) says where it stopped, and JUnit has a failed case for it.
    @Test func abortOnFail_stopsTheFleetAtTheBreach_andExits99() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("fleet.json").path, junit = folder.url.appendingPathComponent("fleet.xml").path
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "20000", "--seed", "5", "--sink", "--report", report, "--junit", junit,
                                   "--threshold", "event=midpoint:sent<=50", "--threshold", "received/sent>=0.999", "--abort-on-fail"]
                                  + FleetEndToEndTests.patient)
        #expect(run.status == 99, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.hasPrefix("vplay: error: threshold failed, run aborted at ") && run.stderr.contains("event=midpoint:sent<=50: ")
                && run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        #expect(run.stdout.contains("aborted    at "), "\(run.stdout)")
        #expect(try await JSONSchemaCheck.validate([.init(report, schema: "fleet-report.schema.json")]).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let aborted = try #require(document["aborted"] as? [String: Any])
        #expect(aborted["threshold"] as? String == "event=midpoint:sent<=50")
        let played = ((document["population"] as? [String: Any])?["scenarios"] as? [String: Int])?.values.reduce(0, +) ?? -1
        #expect(played > 50 && played < 20000, "\(played) sessions played")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("the run goes to its end (--abort-on-fail)"), "\(xml.prefix(2000))")
        #expect(try await ExternalValidators.xmlSchema(Data(xml.utf8), xsd: "junit.xsd").isEmpty)
    }
}
