import BeaconSink
import Testing
@testable import vplay

/// `probe`, `sink`, `beacon-load` and `merge`: their options parsed once, their rules across options kept.
@Suite struct ToolCommandsParsingTests {
    @Test func probe_parsesThreadsAndItsPass() throws {
        let probe = try CLI.parse(ProbeCommand.self, ["probe", "clip.mp4", "--decode", "--threads", "1024", "--json"])
        #expect(probe.location == "clip.mp4" && probe.decode && !probe.demux && probe.threads == 1024 && probe.json)
        #expect(try CLI.parse(ProbeCommand.self, ["probe", "clip.mp4"]).threads == 0)
    }

    @Test func sink_parsesItsPortAndFaults() throws {
        let sink = try CLI.parse(SinkCommand.self, ["sink", "--port", "0", "--fault", "500@/midpoint", "--fault", "reset@*", "--log", "hits.jsonl"])
        let faults = [try SinkFault(spec: "500@/midpoint"), try SinkFault(spec: "reset@*")]
        #expect(sink.port == 0 && sink.fault == faults && sink.log == "hits.jsonl")
        let defaults = try CLI.parse(SinkCommand.self, ["sink"])
        #expect(defaults.port == 8089 && defaults.host == "127.0.0.1" && defaults.fault.isEmpty)
    }

    /// `reward-check --junit X --reward-keys X` wrote both outputs into one file: each output is its own file.
    @Test func rewardCheck_twoOutputsInOneFile_isAUsageError() {
        let message = CLI.usageError(["reward-check", "http://127.0.0.1:1/cb", "--junit", "/tmp/same.xml", "--reward-keys", "/tmp/same.xml"])
        #expect(message?.contains("--junit /tmp/same.xml: --reward-keys /tmp/same.xml is the same file; give each output its own") == true, "\(message ?? "accepted")")
    }

    @Test func beaconLoad_parsesItsCounts() throws {
        let load = try CLI.parse(BeaconLoadCommand.self, ["beacon-load", "--url", "http://127.0.0.1:1/b", "--count", "5", "--concurrency", "2"])
        #expect(load.url == "http://127.0.0.1:1/b" && load.count == 5 && load.concurrency == 2)
        let defaults = try CLI.parse(BeaconLoadCommand.self, ["beacon-load", "--url", "http://127.0.0.1:1/b"])
        #expect(defaults.count == 10_000 && defaults.concurrency == 64)
    }

    @Test func merge_takesTheShardReports() throws {
        let merge = try CLI.parse(MergeCommand.self, ["merge", "a.json", "b.json", "--json"])
        #expect(merge.reports == ["a.json", "b.json"] && merge.report == nil && merge.json)
    }

    @Test(arguments: [
        (["probe", "clip.mp4", "--decode", "--demux"], "--decode and --demux exclude each other"),
        (["probe", "clip.mp4", "--threads", "5000"], "--threads must be 0 (auto) to 1024"),
        (["probe"], "Missing expected argument '<location>'"),
        (["sink", "--port", "70000"], "--port must be 0 to 65535"),
        (["sink", "--port", "http"], "--port must be 0 to 65535"),
        (["sink", "--fault", "bogus"], #"--fault: invalid fault spec "bogus": expected ACTION@PATTERN, e.g. 500@/midpoint"#),
        (["beacon-load", "--url", "http://x/", "--count", "0"], "--count must be 1 or more"),
        (["beacon-load", "--url", "http://x/", "--concurrency", "0"], "--concurrency must be 1 or more"),
        (["beacon-load"], "Missing expected argument '--url <url>'"),
        (["merge"], "Missing expected argument '<reports> ...'"),
    ])
    func badValueOrRuleBroken_isAUsageError(_ arguments: [String], _ message: String) {
        let error = CLI.usageError(arguments)
        #expect(error?.contains(message) == true, "\(arguments): \(error ?? "no usage error")")
    }
}
