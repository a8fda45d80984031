import AdSession
import Foundation

/// A VMAP fleet for people: the reach of each break, then each break's fleet summary.
enum VMAPFleetText {
    static func summary(_ report: VMAPFleetReport) -> String {
        if let error = report.error { return "VMAP fleet: the document cannot play: \(error.code) \(error.message)" }
        var lines = [String(format: "VMAP fleet: %d viewers, seed %llu, mix %@, watch mix %@, content %.3f s%@", report.sessions, report.seed, report.mix,
                            report.watchMix, report.contentDuration, report.contentDurationGiven ? "" : " (assumed)")
                     + (report.shardCount > 1 ? ", shard\(report.shards.count == 1 ? "" : "s") \(report.shards.map(String.init).joined(separator: ", ")) of \(report.shardCount) (each break's reach is the whole fleet's; its fleet below, the shards' share)" : "")]
        lines += report.notes.map { "  note: \($0)" }
        for item in report.breaks {
            let share = report.sessions == 0 ? 0 : Double(item.reach) / Double(report.sessions) * 100
            var line = String(format: "══ break %d (AdBreak %d, %@ → content %.3f s): reach %d of %d (%.1f %%), %@", item.number, item.adBreak, item.timeOffset,
                              item.contentTime, item.reach, report.sessions, share, item.outcome)
            if let error = item.error { line += " — \(error.code) \(error.message)" }
            lines.append("")
            lines.append(line)
            if let breakReport = item.report { lines.append(FleetText.summary(breakReport)) }
        }
        lines.append("")
        lines.append(String(format: "VMAP fleet: %d breaks, %@, %.2f s", report.breaks.count, report.checksPass ? "every break's counts agree" : "a break's counts differ",
                            report.seconds))
        return lines.joined(separator: "\n")
    }
}
