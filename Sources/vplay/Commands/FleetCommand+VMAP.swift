import AdSession
import ArgumentParser
import Foundation
import Primitives

extension FleetCommand {
    /// A VMAP fleet's end: the report written (`--report`, `--junit`), the summary or the JSON printed, and the exit
    /// code — 3 when the document cannot play or a break's ads could not be had, 99 when a break's fleet failed a
    /// `--threshold` (or was aborted at one), 1 when a break's counts differ from its oracle's (or the sink's), 5 with
    /// `--fail-on-beacon-errors` when beacons failed.
    func finish(_ result: VMAPFleetReport, keys: RewardCallbackOptions.KeysOnce, signal: Int32?, started: Date, seconds: Double) throws {
        let result = Self.judged(result, by: thresholds)
        let data = try result.json()
        var failures = FleetReport.write(data, to: report)
        if let html { do { try OutputFile.write(FleetHTML.page(result), to: html, option: "--html") } catch { failures.append("\(error)") } }
        if let junit {
            let suite = JUnitReport.Suite(
                name: "fleet \(tag.vast)", command: "fleet", subject: tag.vast, cases: JUnitReport.vmapFleetCases(result), started: started,
                hostname: ProcessInfo.processInfo.hostName, seconds: seconds,
                properties: [("vmap", tag.vast), ("sessions", "\(result.sessions)"), ("seed", "\(result.seed)"), ("mix", result.mix),
                             ("watchMix", result.watchMix), ("vplay", VPlayVersion.current)])
            do { try OutputFile.write(JUnitReport.xml(suite), to: junit, option: "--junit") } catch { failures.append("\(error)") }
        }
        if let keyFailure = keys.write() { failures.append(keyFailure) }
        if json { StandardStreams.print(String(decoding: data, as: UTF8.self)) } else { StandardStreams.say(VMAPFleetText.summary(result)) }
        var code: Int32 = 0
        var reason: String?
        let failed = result.breaks.first { $0.outcome == "failed" }
        if let signal {
            code = 128 + signal
        } else if let error = result.error {
            code = ExitCode.adError.rawValue
            reason = "VMAP \(error.code): \(error.message)"
        } else if let failed {
            code = ExitCode.adError.rawValue
            reason = "VMAP break \(failed.number) (\(failed.timeOffset)) cannot play" + (failed.error.map { ": \($0.code) \($0.message)" } ?? "")
        } else if let (item, why) = Self.thresholdFailure(result) {
            code = ExitCode.thresholdFailed.rawValue
            reason = "VMAP break \(item.number) (\(item.timeOffset)): \(why)"
        } else if !result.checksPass {
            code = ExitCode.expectationFailed.rawValue
            reason = "a break's fleet did not send the beacons its oracle expected, or the sink did not receive them"
        } else if beacon.failOnBeaconErrors, result.breaks.contains(where: { !($0.report?.population.failures.isEmpty ?? true) }) {
            code = ExitCode.beaconFailures.rawValue
            reason = "beacons failed (--fail-on-beacon-errors)"
        }
        try CommandOutputs.exit(code, failures: failures, signalled: signal != nil, reason: reason)
    }

    /// `result` with each `--threshold` judged on each break's fleet (its viewers' beacons): a JUnit case of that break.
    static func judged(_ result: VMAPFleetReport, by thresholds: [FleetThreshold]) -> VMAPFleetReport {
        guard !thresholds.isEmpty else { return result }
        var result = result
        for index in result.breaks.indices {
            guard let report = result.breaks[index].report else { continue }
            result.breaks[index].report?.thresholds = thresholds.map { FleetReport.Threshold($0.evaluate(report)) }
        }
        return result
    }

    /// The first break whose fleet was aborted at a breach or failed a threshold, and why.
    static func thresholdFailure(_ result: VMAPFleetReport) -> (VMAPFleetReport.Break, String)? {
        for item in result.breaks {
            guard let report = item.report else { continue }
            if let aborted = report.aborted {
                return (item, "threshold failed, run aborted at \(String(format: "%.1f", aborted.seconds)) s: \(aborted.message)")
            }
            let failed = (report.thresholds ?? []).filter { !$0.passed }
            if !failed.isEmpty { return (item, "threshold failed: " + failed.map(\.message).joined(separator: "; ")) }
        }
        return nil
    }
}
