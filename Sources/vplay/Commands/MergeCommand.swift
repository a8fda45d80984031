import AdSession
import ArgumentParser
import BeaconSink
import Foundation
import Primitives
import TrackingBeacons

/// `vplay merge REPORT…`: shard reports of one fleet added up into the report of the whole; or shards' `--results`
/// databases, the report regenerated from their rows (and `--results` merging them into one).
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Add up fleet shard reports (vplay fleet --shard K/N --report ...), or their --results databases, into the whole fleet's report.",
        discussion: ExitCode.mergeDocumentation
    )

    @Argument(help: "Shard reports written by vplay fleet --report, or their databases written by --results (FILE.sqlite: the report is counted again from their rows).", completion: .file())
    var reports: [String]

    @Option(help: ArgumentHelp("With --results databases given: write their rows merged into one database at FILE.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--results"))
    var results: String?

    /// Whether the inputs are `--results` databases (each named .sqlite) rather than JSON reports.
    var databases: Bool { reports.allSatisfy { $0.hasSuffix(".sqlite") } }

    @Option(help: ArgumentHelp("Write the merged report to FILE.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--report"))
    var report: String?

    @Option(help: ArgumentHelp("Write the merged report as one self-contained HTML page to FILE.", valueName: "file"), completion: .file(),
            transform: OptionValue.writableFile("--html"))
    var html: String?

    @Flag(help: "Print the merged report as JSON on stdout instead of the text summary.")
    var json = false

    @Flag(help: "Accept a merge of fewer than all shards (exit by the counts; without it a missing shard exits 1).")
    var allowPartial = false

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if reports.isEmpty { throw ValidationError("name at least one shard report") }
        if !databases, reports.contains(where: { $0.hasSuffix(".sqlite") }) {
            throw ValidationError("give shard reports (JSON) or --results databases (.sqlite), not both")
        }
        if results != nil, !databases { throw ValidationError("--results merges --results databases: give those (.sqlite)") }
        try OptionValue.checkNoClash(outputs: [("--report", report), ("--results", results), ("--html", html)], inputs: reports.map { ("shard report", $0) })
    }

    func run() throws {
        quietOption.apply()
        if !databases, let first = reports.first, VMAPMerge.isVMAPReport(first) { return try mergeVMAP() }
        let merged = try databases ? mergeDatabases() : mergeReports()
        let data = try merged.json()
        var failures = FleetReport.write(data, to: report)
        if let html { do { try OutputFile.write(FleetHTML.page(merged), to: html, option: "--html") } catch { failures.append("\(error)") } }
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

    /// The JSON shard reports, added up.
    func mergeReports() throws -> FleetReport {
        var parsed: [FleetReport] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(path): cannot read it") }
            do { parsed.append(try JSONDecoder().decode(FleetReport.self, from: data)) } catch {
                throw ValidationError("\(path): not a fleet report (\(ReportOptions.describe(error)))")
            }
        }
        do { return try FleetReport.merge(parsed) } catch { throw ValidationError(error.description) }
    }

    /// The report counted again from the databases' rows; with `--results`, their rows merged into one database.
    func mergeDatabases() throws -> FleetReport {
        do {
            let merged = try FleetResultsFile.report(from: reports)
            if let results { try FleetResultsFile.merge(reports, into: results, report: merged) }
            return merged
        } catch {
            throw ValidationError(error.description)
        }
    }
}
