import Primitives
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import vplay

/// `--junit` as CI reads it, from the files the binary writes: valid against `schemas/junit.xsd` and Jenkins'
/// `junit-4.xsd` (`schemas/jenkins-junit-4.xsd`), a
/// classname Jenkins does not split inside the tag's name, when and where it ran and for how long, the same cases with
/// and without `--sink`; and `fleet --junit`. Test names that survive a golden file's new values and failures that
/// say what differed are `ExpectationBehaviourTests`, in process.
@Suite struct JUnitTests {
    struct Report {
        var document: XMLDocument
        var text: String

        func cases() throws -> [(name: String, classname: String, failure: String?, skipped: Bool)] {
            try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }.map { element in
                let failure = element.elements(forName: "failure").first
                return (element.attribute(forName: "name")?.stringValue ?? "", element.attribute(forName: "classname")?.stringValue ?? "",
                        failure.map { $0.attribute(forName: "message")?.stringValue ?? "" }, !element.elements(forName: "skipped").isEmpty)
            }
        }

        func suite(_ attribute: String) throws -> String? {
            try (document.nodes(forXPath: "//testsuite").first as? XMLElement)?.attribute(forName: attribute)?.stringValue
        }
    }

    /// Reads a JUnit file after checking it against both schemas: the project's and Jenkins' `junit-4.xsd`.
    static func report(_ path: String) async throws -> Report {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        for xsd in ["junit.xsd", "jenkins-junit-4.xsd"] {
            let complaints = try await ExternalValidators.xmlSchema(data, xsd: xsd)
            #expect(complaints == "", "valid against schemas/\(xsd)")
        }
        return Report(document: try LeakSanitizer.ignore(XMLDocument(data: data)), text: String(decoding: data, as: UTF8.self))
    }

    static func demoTag(_ folder: TemporaryFolder, beaconBase: String) throws -> String {
        let tag = try DemoTags.text(beaconBase: beaconBase)
        return try folder.write("tag.xml", tag)
    }

    /// Only a process shows the JUnit file it writes, stamped with the run's start, the host and its wall time.
    @Test func junit_isValid_withTimestampHostnameAndTheWallTimeNotTheSessionClock() async throws {
        let folder = try TemporaryFolder()
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let before = Date()
        // Backgrounded for 500 s of session clock, which the virtual clock passes in no time.
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "background@3,foreground@503", "--junit", junit])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try await Self.report(junit)
        let timestamp = try #require(try report.suite("timestamp"))
        let formatter = ISO8601DateFormatter()
        let started = try #require(formatter.date(from: timestamp + "Z"), "\(timestamp)")
        #expect(started.timeIntervalSince(before) > -2 && started.timeIntervalSinceNow < 1, "when the run started: \(timestamp)")
        #expect(try report.suite("hostname") == ProcessInfo.processInfo.hostName)
        let seconds = try #require(Double(try report.suite("time") ?? ""))
        #expect(seconds > 0 && seconds < 400, "the run's wall time, not the 513 s of session clock: \(seconds)")
        #expect(try report.cases().allSatisfy { $0.classname == "vplay.run.demo-xml" }, "no dot inside the tag's part")
    }

    /// Only a process shows the JUnit files of a run whose beacons a closed port refuses and of one with the sink.
    @Test func junit_withAndWithoutSink_hasTheSameTests_andAFailedBeaconIsNamed() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demoTag(folder, beaconBase: "http://127.0.0.1:\(ScriptedHTTPServer.closedPort())")
        let plain = folder.url.appendingPathComponent("plain.xml").path, sunk = folder.url.appendingPathComponent("sink.xml").path
        let first = try await vplay(["--vast", tag, "--junit", plain])
        let second = try await vplay(["--vast", tag, "--sink", "--junit", sunk])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let without = try await Self.report(plain).cases(), with = try await Self.report(sunk).cases()
        #expect(without.map(\.name) == with.map(\.name))
        #expect(without.map(\.name) == ["ad plays without error", "session ran to its end", "every beacon delivered", "every beacon received by the sink"])
        #expect(without[3].skipped && !with[3].skipped && with.allSatisfy { $0.failure == nil })
        let delivered = try #require(without[2].failure)
        #expect(delivered.hasPrefix("expected all 12 beacons delivered, but 12 failed: ") && delivered.contains(" beacon (inline) http://127.0.0.1:")
                && delivered.contains(": connection refused"), "\(delivered)")
    }

    /// Only a process shows the JUnit files `fleet --junit` writes, in a dry run and with the sink: the same cases.
    @Test func fleet_junit_hasACasePerTrackingURLAndCheck_theSameWithAndWithoutSink() async throws {
        let folder = try TemporaryFolder()
        let dry = folder.url.appendingPathComponent("dry.xml").path, sunk = folder.url.appendingPathComponent("sink.xml").path
        let first = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "20", "--dry-run", "--seed", "3", "--junit", dry])
        let second = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "20", "--sink", "--seed", "3", "--junit", sunk])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let planned = try await Self.report(dry).cases(), received = try await Self.report(sunk).cases()
        #expect(planned.map(\.name) == received.map(\.name))
        #expect(planned.contains { $0.name.hasPrefix("midpoint beacon (inline) http://127.0.0.1:8089/midpoint") && $0.name.hasSuffix(" sent as expected") })
        #expect(planned.suffix(2).map(\.name) == ["beacons delivered", "no unexpected hits at the sink"])
        #expect(planned.filter(\.skipped).count == planned.count / 2 + 1, "arrivals and delivery are not checked in a dry run")
        #expect(received.allSatisfy { !$0.skipped && $0.failure == nil })
        #expect(received.allSatisfy { $0.classname == "vplay.fleet.demo-xml" })
    }

    @Test func schema_rejectsASuiteWithoutTimestampOrHostname() async throws {
        let xml = #"<testsuite name="x" tests="1" failures="0" errors="0" time="0"><testcase name="a" classname="b" time="0"/></testsuite>"#
        let complaints = try await ExternalValidators.xmlSchema(Data(xml.utf8), xsd: "junit.xsd")
        #expect(complaints.contains("timestamp") && complaints.contains("hostname"), "\(complaints)")
    }

    /// Jenkins' junit-4.xsd refused vplay's files: `skipped` on <testsuites>, a `message` on <skipped>, an empty
    /// <properties/>. A suite with a pass, a failure, a skip and no properties is valid against both schemas now;
    /// the schema itself refuses the old form.
    @Test func aSuiteWithEveryOutcome_isValidAgainstJenkinsSchemaAndOurs() async throws {
        let cases = [JUnitReport.Case(name: "ok", outcome: .passed), JUnitReport.Case(name: "bad", outcome: .failed(message: "m", details: "d")),
                     JUnitReport.Case(name: "later", outcome: .skipped("no sink"))]
        let xml = JUnitReport.xml(JUnitReport.Suite(name: "t", command: "run", subject: "media/demo.xml", cases: cases, started: Date(timeIntervalSince1970: 0),
                                                    hostname: "h", seconds: 1))
        for xsd in ["junit.xsd", "jenkins-junit-4.xsd"] {
            let complaints = try await ExternalValidators.xmlSchema(Data(xml.utf8), xsd: xsd)
            #expect(complaints == "", "\(xsd): \(complaints)")
        }
        #expect(xml.contains("<skipped>no sink</skipped>") && !xml.contains("<properties"))
        let old = xml.replacingOccurrences(of: "<skipped>no sink</skipped>", with: #"<skipped message="no sink"/>"#)
        #expect(try await ExternalValidators.xmlSchema(Data(old.utf8), xsd: "jenkins-junit-4.xsd").contains("'message' is not allowed"))
    }

    /// Class names were the tag path as typed and `reward-check`'s ephemeral port: they differed on every machine and
    /// every run, and CI history broke. The same tag or endpoint has the same class name wherever it runs.
    @Test func classNames_areTheSameOnEveryMachine() {
        #expect(JUnitReport.classname(command: "run", subject: "media/demo.xml") == "vplay.run.demo-xml")
        #expect(JUnitReport.classname(command: "run", subject: "/home/ci/work/media/demo.xml") == "vplay.run.demo-xml")
        #expect(JUnitReport.classname(command: "run", subject: "file:///tmp/x/demo.xml") == "vplay.run.demo-xml")
        #expect(JUnitReport.classname(command: "reward-check", subject: "http://127.0.0.1:43187/ssv")
                == JUnitReport.classname(command: "reward-check", subject: "http://127.0.0.1:51002/ssv"))
        #expect(JUnitReport.classname(command: "run", subject: "https://ads.example/vast?id=1&cb=2") == "vplay.run.ads-example-vast")
    }
}
