import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// One readable line per session record (the console timeline without `--json`).
enum SessionText {
    static func time(_ duration: Duration) -> String { String(format: "%8.3f", duration.jsonSeconds) }

    static func line(_ record: SessionRecord) -> String {
        switch record {
        case let .resolved(info):
            var text = "ad \(info.adID ?? "?") from \(info.adSystem ?? "?")"
            if info.wrapperCount > 0 { text += " via \(info.wrapperCount) wrapper(s)" }
            text += "\nmedia \(info.mediaURL): \(info.media.video.map { "\($0.codec) \($0.width ?? 0)x\($0.height ?? 0)" } ?? "audio only"), "
            text += String(format: "%.3f s (%@)", info.media.duration, info.mediaReason)
            return text + "\n   clock playhead  what"
        case let .event(event):
            var text = "\(time(event.clock)) \(time(event.playhead))  ● \(event.name.rawValue)"
            if let detail = event.detail { text += " (\(detail))" }
            if let reward = event.reward { text += " \(JSON.format(reward.amount)) \(reward.currency)" }
            if event.play > 1 { text += " [play \(event.play)]" }
            return text
        case let .beacon(beacon):
            let status = beacon.dryRun ? "dry-run" : beacon.status.map { "\($0)" } ?? "FAILED"
            var text = "\(time(beacon.clock)) \(time(beacon.playhead))    → \(beacon.event) [\(beacon.source)] \(status)"
            if let latency = beacon.latency { text += String(format: " %.0f ms", latency.jsonSeconds * 1000) }
            if let error = beacon.error { text += " (\(error))" }
            return text + " \(beacon.url)"
        case let .warning(message):
            return "warning: \(message)"
        case let .reconciliation(result):
            var lines = ["sink: \(result.received) received, \(result.matched) of \(result.sent) sent matched"]
            lines += result.missing.map { "  missing: \($0.event) [\($0.source)] \($0.url)\($0.error.map { " (\($0))" } ?? "")" }
            lines += result.unexpected.map { "  unexpected: \($0)" }
            return lines.joined(separator: "\n")
        case let .error(error):
            return "error \(error.code): \(error.message)"
        }
    }

    static func expectations(_ results: [ExpectationResult]) -> String {
        let failed = results.filter { !$0.passed }
        var lines = ["", "expectations: \(results.count - failed.count) passed, \(failed.count) failed"]
        for result in results where !result.passed {
            lines.append("  ✗ \(result.name): \(result.detail ?? "failed")")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ summary: SessionSummary, exitCode: Int32) -> String {
        var lines = ["", "summary: \(summary.outcome.rawValue) (exit \(exitCode))"]
        if let duration = summary.duration { lines.append(String(format: "  duration %.3f s, session clock %.3f s", duration.jsonSeconds, summary.clock.jsonSeconds)) }
        lines.append("  events \(summary.events)")
        if summary.dryRun {
            lines.append("  beacons \(summary.beaconsPlanned) planned (dry run: none sent)")
        } else {
            lines.append("  beacons \(summary.beaconsPlanned) planned, \(summary.beaconsDelivered) delivered, \(summary.beaconsFailed) failed")
            if let result = summary.reconciliation {
                lines.append("  sink received \(result.received), matched \(result.matched) of \(result.sent) sent, \(result.missing.count) missing, \(result.unexpected.count) unexpected")
            }
        }
        if let playback = summary.playback {
            lines.append("  frames \(playback.framesPresented) presented, \(playback.framesLate) late, \(playback.statistics.decodeErrors) decode errors")
        }
        if let playback = summary.playback {
            lines.append("  ending \(playback.ending?.rawValue ?? "none"), reward \(playback.rewardGranted ? "granted" : "not granted")")
        }
        if let error = summary.error { lines.append("  error \(error.code): \(error.message)") }
        if !summary.warnings.isEmpty { lines.append("  warnings \(summary.warnings.count)") }
        return lines.joined(separator: "\n")
    }
}
