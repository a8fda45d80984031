import AdSession
import Foundation
import BeaconSink
import Testing
import TestSupport
@testable import vplay

/// `--sink`, `--sink-all`, `--sink-fault`: declared once (`SinkOptions`) for `run` and `fleet`, with their rules.
@Suite struct SinkOptionsParsingTests {
    static let commands: [[String]] = [[], ["fleet"]]

    func sinkOptions(_ command: [String], _ arguments: [String]) throws -> SinkOptions {
        let parsed = try VPlay.parseAsRoot(command + ["--vast", "ad.xml"] + arguments)
        if let run = parsed as? RunCommand { return run.sink }
        if let fleet = parsed as? FleetCommand { return fleet.sink }
        throw CLIError("\(command) parsed to \(type(of: parsed))")
    }

    @Test(arguments: commands)
    func sinkFaults_areParsedOnce_intoTheConfiguration(_ command: [String]) throws {
        let sink = try sinkOptions(command, ["--sink", "--sink-fault", "500@/midpoint", "--sink-fault", "delay=2s@/start"])
        #expect(sink.sinkFault == [try SinkFault(spec: "500@/midpoint"), try SinkFault(spec: "delay=2s@/start")])
        var configuration = SessionConfiguration(tag: "ad.xml")
        sink.apply(to: &configuration)
        #expect(configuration.sink == .loopback)
        #expect(configuration.sinkFaults == sink.sinkFault)
    }

    @Test(arguments: commands, [([String](), nil), (["--sink"], SinkRouting.Scope.loopback), (["--sink-all"], .all), (["--sink", "--sink-all"], .all)])
    func sinkAndSinkAll_sayWhichURLsGoToTheSink(_ command: [String], _ flags: ([String], SinkRouting.Scope?)) throws {
        let sink = try sinkOptions(command, flags.0)
        var configuration = SessionConfiguration(tag: "ad.xml")
        sink.apply(to: &configuration)
        #expect(configuration.sink == flags.1)
        #expect(configuration.sinkFaults.isEmpty)
    }

    @Test(arguments: commands, [
        (["--sink", "--sink-fault", "bogus"], #"--sink-fault: invalid fault spec "bogus": expected ACTION@PATTERN, e.g. 500@/midpoint"#),
        (["--sink-fault", "500@/midpoint"], "--sink-fault needs --sink or --sink-all"),
        (["--sink", "--dry-run"], "--sink sends beacons; it does not go with --dry-run"),
        (["--sink-all", "--dry-run"], "--sink sends beacons; it does not go with --dry-run"),
        // A port no connection can use was accepted, and every beacon then failed.
        (["--collector", "http://127.0.0.1:99999"], "--collector must be an http(s) URL of a host and port (1-65535)"),
        (["--collector", "http://127.0.0.1:0"], "--collector must be an http(s) URL of a host and port (1-65535)"),
    ])
    func badFaultOrRulesBroken_isAUsageError(_ command: [String], _ bad: ([String], String)) {
        let (arguments, message) = bad
        let error = CLI.usageError(command + ["--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(command + arguments): \(error ?? "no usage error")")
    }

    /// `vplay sink --media DIR --log DIR/clip.mp4` appended hit records into a file it served: the log is an output,
    /// refused anywhere inside the served folder (an existing file or a new one), accepted beside it.
    @Test func sinkLog_insideTheServedFolder_isRefused() throws {
        let folder = try TemporaryFolder()
        let media = folder.url.appendingPathComponent("media").path
        try FileManager.default.createDirectory(atPath: media + "/sub", withIntermediateDirectories: true)
        try Data("clip".utf8).write(to: URL(fileURLWithPath: media + "/clip.mp4"))
        for log in [media + "/clip.mp4", media + "/sub/hits.jsonl", media + "/../media/new.jsonl"] {
            #expect {
                _ = try VPlay.parseAsRoot(["sink", "--media", media, "--log", log])
            } throws: { error in
                let message = VPlay.message(for: error)
                return message.contains("--log \(log): inside the --media folder \(media)")
            }
        }
        #expect(try VPlay.parseAsRoot(["sink", "--media", media, "--log", folder.url.appendingPathComponent("hits.jsonl").path]) is SinkCommand)
        #expect(try Data(contentsOf: URL(fileURLWithPath: media + "/clip.mp4")) == Data("clip".utf8))
    }
}
