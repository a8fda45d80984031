import Primitives
import AdSession
import Foundation

/// A fleet report for people: who did what, every tracking URL's expected / sent / delivered / received, the
/// failures, whether the counts agree, and what the run cost.
enum FleetText {
    static func summary(_ report: FleetReport) -> String {
        let fleet = report.fleet, population = report.population, performance = report.performance
        var lines: [String] = []
        let shards = fleet.shardCount == 1 ? "" : " (shards \(fleet.shards.map(String.init).joined(separator: ",")) of \(fleet.shardCount))"
        let sessions = population.scenarios.values.reduce(0, +)
        lines.append("fleet: \(sessions) of \(fleet.sessions) sessions\(shards), seed \(fleet.seed), mix \(fleet.mix)")
        lines.append(String(format: "media: %@, %.3f s%@", fleet.media, fleet.duration, fleet.decodeEach ? " (decoded in every session)" : " (decoded once, replayed)"))
        lines.append("scenarios  " + counts(population.scenarios))
        lines.append("endings    " + counts(population.endings))
        lines.append("rewards    \(population.rewardsGranted) granted, \(population.rewardsForfeited) forfeited")
        if let view = population.viewability {
            let rate = view.rate.map { String(format: "%.1f %% viewable", $0 * 100) } ?? "no rate"
            lines.append("viewable   \(view.viewable) viewable, \(view.notViewable) not viewable, \(view.undetermined) undetermined (\(rate))")
        }
        if let networks = population.networks, !networks.isEmpty {
            lines.append("")
            var table = [["network", "sessions", "402", "stalled", "rebuffers", "stall s", "start", "25%", "50%", "75%", "100%", "beacons", "failed"]]
            for (name, network) in networks.sorted(by: { $0.key < $1.key }) {
                let reached = ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map { "\(network.reached[$0] ?? 0)" }
                table.append([name, "\(network.sessions)", "\(network.failedToLoad)", "\(network.sessionsThatStalled)", "\(network.rebuffers)",
                              String(format: "%.1f", network.stalledSeconds)] + reached
                             + ["\(network.beaconsDelivered)/\(network.beaconsSent)", "\(network.beaconsFailed)", ""])
            }
            lines += aligned(table.map { $0.count == 13 ? $0 + [""] : $0 })
        }
        lines.append("")
        let hasSink = population.beacons.contains { $0.received != nil }
        // An ad pod: each URL's counts per ad (a wrapper's, fired by every ad, is one row per ad).
        let pod = population.beacons.contains { $0.ad != nil }
        var table = [(pod ? ["ad"] : []) + ["event", "source", "expected", "sent", "delivered"] + (hasSink ? ["received"] : []) + ["url"]]
        for beacon in population.beacons {
            let event = beacon.offset.map { "\(beacon.event)@\(String(format: "%.3f", $0))" } ?? beacon.event
            var row = (pod ? [beacon.ad.map(String.init) ?? "-"] : []) + [event, beacon.source, "\(beacon.expected)", "\(beacon.sent)", "\(beacon.delivered)"]
            if hasSink { row.append(beacon.received.map(String.init) ?? "-") }
            row.append(beacon.template)
            let agrees = beacon.sent == beacon.expected && (beacon.received.map { $0 == beacon.sent } ?? true)
            table.append(row + (agrees ? [] : ["✗"]))
        }
        lines += aligned(table)
        lines.append("")
        lines.append("failures   " + (population.failures.isEmpty ? "none" : counts(population.failures)))
        for warning in report.warnings { lines.append("warning    " + warning) }
        if let unexpected = population.unexpected { lines.append("unexpected \(unexpected) hits at the sink no beacon accounts for") }
        var checks = "sent as the scenarios imply: " + (report.aborted != nil ? "not judged (aborted)" : report.checks.sentAsExpected ? "yes" : "NO")
        if let received = report.checks.receivedAsSent { checks += "; received as sent: \(received ? "yes" : "NO")" }
        if let device = report.checks.deviceFields { checks += "; X-Device-* on every hit: \(device ? "yes" : "NO")" }
        lines.append("checks     " + checks)
        for threshold in report.thresholds ?? [] { lines.append("threshold  \(threshold.passed ? "ok  " : "FAIL") \(threshold.message)") }
        if let aborted = report.aborted {
            lines.append(String(format: "aborted    at %.1f s (--abort-on-fail): ", aborted.seconds) + aborted.message + "; the counts are the sessions played until then")
        }
        lines.append(String(format: "cost       %.2f s (decode %.2f s): %.0f sessions/s, %.0f beacons/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; peak RSS %.1f MiB",
                            performance.seconds, performance.decodeSeconds, performance.sessionsPerSecond, performance.beaconsPerSecond,
                            performance.latency.p50 * 1000, performance.latency.p90 * 1000, performance.latency.p99 * 1000, performance.latency.max * 1000,
                            performance.peakRSSMiB))
        return lines.joined(separator: "\n")
    }

    static func counts(_ values: [String: Int]) -> String {
        values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// Left-aligned columns, numbers right-aligned.
    static func aligned(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() where index < columns - 1 { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                guard index < widths.count, widths[index] > 0, index < row.count - 1 else { return cell }
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return Int(cell) != nil ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
    }
}

