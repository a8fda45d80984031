import AdSession
import ArgumentParser
import Foundation
import Primitives

/// `vplay merge` of a VMAP fleet's shard reports (`vplay fleet --vmap DOC --shard K/N --report …`).
enum VMAPMerge {
    /// Whether the report at `path` is a VMAP fleet's (it has a watch mix); a tag fleet's otherwise.
    static func isVMAPReport(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["watchMix"] != nil
    }
}

extension MergeCommand {
    /// The VMAP shard reports added up, break by break: written, printed, and the exit as for a tag fleet's merge.
    func mergeVMAP() throws {
        var parsed: [VMAPFleetReport] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(path): cannot read it") }
            do { parsed.append(try JSONDecoder().decode(VMAPFleetReport.self, from: data)) } catch {
                throw ValidationError("\(path): not a VMAP fleet report (\(ReportOptions.describe(error)))")
            }
        }
        let merged: VMAPFleetReport
        do { merged = try VMAPFleetReport.merge(parsed) } catch { throw ValidationError(error.description) }
        let data = try merged.json()
        var failures = FleetReport.write(data, to: report)
        if let html { do { try OutputFile.write(FleetHTML.page(merged), to: html, option: "--html") } catch { failures.append("\(error)") } }
        if json { StandardStreams.print(String(decoding: data, as: UTF8.self)) } else { StandardStreams.say(VMAPFleetText.summary(merged)) }
        var complete = true
        if let missing = merged.missingShards {
            let message = "\(merged.shards.count) of \(merged.shardCount) shards merged; missing: \(missing.map(String.init).joined(separator: ", "))"
            if allowPartial { StandardStreams.warn(message) } else { StandardStreams.fail(message + " (--allow-partial to accept a partial merge)") }
            complete = allowPartial
        }
        try CommandOutputs.exit(merged.checksPass && complete ? 0 : ExitCode.expectationFailed.rawValue, failures: failures,
                                reason: "the merged counts of a break disagree with its oracle or its sink")
    }
}
