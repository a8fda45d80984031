import AdSession
import Foundation
import Testing
import TestSupport
@testable import vplay

/// Output files and `--expect`: every output path is checked as the command line is parsed (before anything plays),
/// and the expectations file is read and decoded then, once.
@Suite struct OutputOptionsParsingTests {
    static let outputs: [[String]] = [["--report"], ["--junit"], ["--timeline"], ["--record-expectations"], ["--beacons"], ["--har"],
                                      ["fleet", "--report"], ["merge", "shard.json", "--report"]]

    /// `vplay [command…] --vast ad.xml OPTION path` (merge takes no tag).
    func arguments(_ output: [String], _ path: String) -> [String] {
        let tag = output.first == "merge" ? [] : ["--vast", "ad.xml"]
        return output.dropLast() + tag + [output.last!, path]
    }

    @Test(arguments: outputs)
    func unwritablePath_isAUsageErrorNamingTheOption(_ output: [String]) throws {
        let folder = try TemporaryFolder()
        for path in ["/nonexistent-dir/out.file", folder.url.path] {
            let error = CLI.usageError(arguments(output, path))
            #expect(error?.contains("\(output.last!) \(path): cannot write there") == true, "\(output) \(path): \(error ?? "no usage error")")
        }
    }

    @Test(arguments: outputs)
    func writablePath_parses_andNothingIsLeftThere(_ output: [String]) throws {
        let folder = try TemporaryFolder()
        let new = folder.url.appendingPathComponent("new.out").path
        _ = try VPlay.parseAsRoot(arguments(output, new))
        #expect(!FileManager.default.fileExists(atPath: new), "the check leaves no file behind")
        let existing = try folder.write("existing.out", "kept")
        _ = try VPlay.parseAsRoot(arguments(output, existing))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "kept", "an existing file is not touched")
    }

    @Test func outputPaths_areTheCommandsOwn() throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let run = try CLI.parse(RunCommand.self, ["--vast", "ad.xml", "--report", path("r.json"), "--junit", path("j.xml"), "--timeline", path("t.svg"),
                                                   "--record-expectations", path("g.yaml"), "--beacons", path("b.jsonl"), "--har", path("h.har")])
        #expect(run.reports.report == path("r.json") && run.reports.junit == path("j.xml") && run.reports.timeline == path("t.svg"))
        #expect(run.reports.recordExpectations == path("g.yaml") && run.beacons == path("b.jsonl") && run.har == path("h.har"))
        #expect(try CLI.parse(FleetCommand.self, ["fleet", "--vast", "ad.xml", "--report", path("f.json")]).report == path("f.json"))
        #expect(try CLI.parse(MergeCommand.self, ["merge", "a.json", "b.json", "--report", path("m.json")]).report == path("m.json"))
    }

    @Test func expect_isReadAndDecodedOnce_whenTheCommandLineIsParsed() throws {
        let folder = try TemporaryFolder()
        let yaml = try folder.write("golden.yaml", "tolerance: 0.002\nevents:\n  - name: midpoint\n    playhead: 5.0\nreward: true\n")
        let json = try folder.write("golden.json", #"{"tolerance": 0.002, "events": [{"name": "midpoint", "playhead": 5.0}], "reward": true}"#)
        let fromYAML = try CLI.parse(RunCommand.self, ["--vast", "ad.xml", "--expect", yaml]).reports.expect
        let fromJSON = try CLI.parse(RunCommand.self, ["--vast", "ad.xml", "--expect", json]).reports.expect
        try FileManager.default.removeItem(atPath: yaml)
        #expect(fromYAML != nil && fromYAML == fromJSON)
        #expect(fromYAML?.events == [SessionExpectations.Event(name: "midpoint", playhead: 5.0)] && fromYAML?.reward == true)
        #expect(try CLI.parse(RunCommand.self, ["--vast", "ad.xml"]).reports.expect == nil)
    }

    /// A key vplay does not know, a file that expects nothing, or a time that is no number is a usage error, not a
    /// check that silently passes (or a crash printing NaN).
    @Test(arguments: [
        ("typo.yaml", "event:\n  - name: midpoint\n    playhead: 5.0\n", "unknown key 'event'"),
        ("nested.json", #"{"events": [{"name": "midpoint", "playhed": 5.0}]}"#, "unknown key 'playhed'"),
        ("empty.json", "{}", "the file expects nothing"),
        ("nan.yaml", "events:\n  - name: midpoint\n    playhead: .nan\n", "at events[0].playhead: 'playhead' must be a finite number of seconds, not nan"),
        ("inf.yaml", "tolerance: .inf\nevents:\n  - name: midpoint\n", "'tolerance' must be a finite number of seconds, not inf"),
    ])
    func badExpectationsFile_isAUsageErrorSayingWhatIsWrong(_ name: String, _ content: String, _ message: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(name, content)
        let error = CLI.usageError(["--vast", "ad.xml", "--expect", file])
        #expect(error?.contains("--expect \(file): ") == true && error?.contains(message) == true, "\(error ?? "no usage error")")
    }

    @Test func missingExpectationsFile_isAUsageError() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("missing.yaml").path
        #expect(CLI.usageError(["--vast", "ad.xml", "--expect", missing])?.contains("--expect \(missing): cannot read it") == true)
    }

    /// An output that is an input, or another output, is refused as the command line is parsed: compared by the file
    /// named (links, `..`), not by the text. Devices are written in place and may be shared.
    @Test func anOutputThatIsAnInputOrAnotherOutput_isAUsageError() throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("ad.xml", "<VAST/>")
        let script = try folder.write("steps.json", #"[{"at": 1, "action": "mute"}]"#)
        let golden = try folder.write("golden.yaml", "reward: true\n")
        let state = try folder.write("adcash.json", "{}")
        let shard = try folder.write("shard.json", "{}")
        let mapped = folder.url.appendingPathComponent("recorded").path
        try FileManager.default.createDirectory(atPath: mapped, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.xml").path, withDestinationPath: "ad.xml")
        let cases: [([String], String)] = [
            (["--vast", tag, "--har", folder.url.appendingPathComponent("link.xml").path], "that is the --vast input"),
            (["--vast", "file://" + tag, "--beacons", tag], "that is the --vast input"),
            (["--vast", tag, "--script-file", script, "--junit", script], "that is the --script-file input"),
            (["--vast", tag, "--expect", golden, "--record-expectations", golden], "that is the --expect input"),
            (["--vast", tag, "--adcash-state", state, "--report", state], "is the same file"),
            (["--vast", tag, "--adcash-state", tag], "that is the --vast input"),
            (["--vast", "http://127.0.0.1/ad.xml", "--map", "http://127.0.0.1/=\(mapped)", "--timeline", mapped + "/out.svg"], "inside the --map folder"),
            (["--vast", tag, "--report", folder.url.appendingPathComponent("r.json").path, "--junit", folder.url.path + "/./r.json"], "is the same file"),
            (["fleet", "--vast", tag, "--report", tag], "that is the --vast input"),
            (["merge", shard, "--report", shard], "that is the shard report input"),
        ]
        for (arguments, message) in cases {
            let error = CLI.usageError(arguments)
            #expect(error?.contains(message) == true, "\(arguments): \(error ?? "no usage error")")
        }
        #expect(CLI.usageError(["--vast", tag, "--report", "/dev/null", "--junit", "/dev/null", "--beacons", "/dev/stdout", "--har", "/dev/stdout"]) == nil)
        #expect(try String(contentsOfFile: tag, encoding: .utf8) == "<VAST/>")
    }
}
