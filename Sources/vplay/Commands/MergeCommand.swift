import AdSession
import ArgumentParser
import BeaconSink
import Foundation
import Primitives
import TrackingBeacons

/// `vplay merge REPORT…`: shard reports of one fleet added up into the report of the whole.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Add up fleet shard reports (vplay fleet --shard K/N --report ...) into the whole fleet's report.",
        discussion: ExitCode.mergeDocumentation
    )

    @Argument(help: "Shard reports written by vplay fleet --report.", completion: .file())
    var reports: [String]

    @Option(help: ArgumentHelp("Write the merged report to FILE.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--report"))
    var report: String?

    @Flag(help: "Print the merged report as JSON on stdout instead of the text summary.")
    var json = false

    @Flag(help: "Accept a merge of fewer than all shards (exit by the counts; without it a missing shard exits 1).")
    var allowPartial = false

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if reports.isEmpty { throw ValidationError("name at least one shard report") }
        try OptionValue.checkNoClash(outputs: [("--report", report)], inputs: reports.map { ("shard report", $0) })
    }

    func run() throws {
        quietOption.apply()
        var parsed: [FleetReport] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(path): cannot read it") }
            do { parsed.append(try JSONDecoder().decode(FleetReport.self, from: data)) } catch {
                throw ValidationError("\(path): not a fleet report (\(ReportOptions.describe(error)))")
            }
        }
        let merged: FleetReport
        do { merged = try FleetReport.merge(parsed) } catch { throw ValidationError(error.description) }
        let data = try merged.json()
        let failures = FleetReport.write(data, to: report)
        if json { StandardStreams.print(String(decoding: data, as: UTF8.self)) } else { StandardStreams.say(FleetText.summary(merged)) }
        var complete = true
        if let missing = merged.fleet.missingShards {
            let list = missing.map(String.init).joined(separator: ", ")
            let message = "\(merged.fleet.shards.count) of \(merged.fleet.shardCount) shards merged; missing: \(list)"
            if allowPartial { StandardStreams.warn(message) } else { StandardStreams.fail(message + " (--allow-partial to accept a partial merge)") }
            complete = allowPartial
        }
        let agree = merged.checks.sentAsExpected && merged.checks.receivedAsSent != false
        try CommandOutputs.exit(agree && complete ? 0 : ExitCode.expectationFailed.rawValue, failures: failures,
                                reason: "the merged counts disagree (sent as expected: \(merged.checks.sentAsExpected), received as sent: \(merged.checks.receivedAsSent.map { "\($0)" } ?? "not checked"))")
    }
}
