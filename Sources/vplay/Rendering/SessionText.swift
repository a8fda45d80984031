import Primitives
import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// One readable line per session record (the console timeline without `--json`).
enum SessionText {
    static func time(_ duration: Duration) -> String { String(format: "%8.3f", duration.reportedSeconds) }

    static func line(_ record: SessionRecord, style: Style = Style(enabled: false)) -> String {
        switch record {
        case let .resolved(info):
            var text = "ad \(info.adID ?? "?") from \(info.adSystem ?? "?")"
            if info.wrapperCount > 0 { text += " via \(info.wrapperCount) wrapper(s)" }
            text += "\nmedia \(info.mediaURL): \(info.media.video.map { "\($0.codec) \($0.width ?? 0)x\($0.height ?? 0)" } ?? "audio only"), "
            text += String(format: "%.3f s (%@)", info.media.duration, info.mediaReason)
            let timeline = info.media.timeline
            if timeline.start != .zero {
                text += "\ntimeline \(timeline.start.millisecondText)–\(timeline.end.millisecondText) s of the file (playhead 0 is its first picture)"
            }
            return text + "\n   clock playhead  what"
        case let .event(event):
            let name: String = switch event.name {
            case .firstQuartile, .midpoint, .thirdQuartile, .complete, .rewarded, .impression, .start: style.green(event.name.rawValue)
            case .pause, .resume, .appState, .skippable, .closeShown: style.yellow(event.name.rawValue)
            case .rejected, .rewardForfeited, .abandoned: style.red(event.name.rawValue)
            default: style.cyan(event.name.rawValue)
            }
            var text = "\(time(event.clock)) \(time(event.playhead))  ● \(name)"
            if let detail = event.detailText { text += " (\(detail))" }
            if let reward = event.reward { text += " \(JSON.format(reward.amount)) \(reward.currency)" }
            if event.play > 1 { text += " [play \(event.play)]" }
            if let icon = event.icon { text += " #\(icon + 1)" }
            if let url = event.clickThroughURL { text += " → \(url)" }
            if let ad = event.ad, event.name == .impression || event.name == .rejected { text += style.dim(" [ad \(ad.index)]") }
            return text
        case let .beacon(beacon):
            let plain = beacon.dryRun ? "dry-run" : beacon.status.map { "\($0)" } ?? "FAILED"
            let status = beacon.dryRun ? style.dim(plain) : beacon.delivered ? style.green(plain) : style.red(plain)
            var text = "\(time(beacon.clock)) \(time(beacon.playhead))    → \(beacon.event) [\(beacon.source)] \(status)"
            if let latency = beacon.latency { text += String(format: " %.0f ms", latency.reportedSeconds * 1000) }
            if beacon.attempt > 1 || !beacon.isFinalAttempt { text += " attempt \(beacon.attempt)" }
            if let error = beacon.error { text += style.red(" (\(error))") }
            return text + style.dim(" \(beacon.url)")
        case let .warning(message):
            return style.yellow("warning: ") + message
        case let .reconciliation(result):
            var lines = ["sink: \(result.received) received, \(result.matched) of \(result.sent) sent matched"]
            lines += result.missing.map { "  missing: \($0.event) [\($0.source)] \($0.url)\($0.error.map { " (\($0))" } ?? "")" }
            lines += result.unexpected.map { "  unexpected: \($0)" }
            lines += result.notSent.map { "  not sent (the session ended first): \($0.event) [\($0.source)] \($0.url)" }
            if let check = result.device {
                lines.append("  X-Device-IP \(check.expected.ip ?? "-") and X-Device-User-Agent on \(check.checked - check.wrong.count) of \(check.checked) hit(s)")
                lines += check.wrong.map { "  without the device's fields: \($0)" }
            }
            return lines.joined(separator: "\n")
        case let .error(error):
            return style.red("error \(error.code): ") + error.message
        case let .ad(report):
            let line = "── " + podAdText(report)
            return report.error == nil && report.outcome != .notPlayed ? style.bold(line) : style.yellow(line)
        case let .adBreak(report):
            let line = VMAPRendering.text(report)
            return report.outcome == .played && report.errors.isEmpty ? style.bold(line) : style.yellow(line)
        }
    }

    /// `ad 2 (id X, sequence 2): failed 402 (…)`, `ad 2 (id Y, stand-alone, substitute): completed, 15.000 s played, 9 beacons`.
    static func podAdText(_ report: PodAdReport) -> String {
        var who = ["id \(report.ad.id ?? "?")"]
        who.append(report.ad.sequence.map { "sequence \($0)" } ?? "stand-alone")
        if report.substitute { who.append("substitute") }
        var text = "ad \(report.ad.index) (\(who.joined(separator: ", "))): \(report.outcome.rawValue)"
        if let error = report.error { text += " \(error.code.rawValue) (\(error.message))" }
        if report.outcome != .notPlayed, report.outcome != .cut, report.start != report.end || report.played > .zero {
            text += ", \(report.played.millisecondText) s played"
        }
        if report.outcome != .notPlayed { text += ", \(report.beacons) beacon(s)" }
        return text
    }

    static func expectations(_ results: [ExpectationResult]) -> String {
        let failed = results.filter { !$0.passed }
        var lines = ["", "expectations: \(results.count - failed.count) passed, \(failed.count) failed"]
        for result in results where !result.passed {
            lines.append("  ✗ \(result.name): \(result.detail ?? "failed")")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ summary: SessionSummary, exitCode: Int32, style: Style = Style(enabled: false)) -> String {
        var rows: [(String, String)] = []
        if let duration = summary.duration {
            rows.append(("duration", String(format: "%.3f s of media, session clock %.3f s", duration.reportedSeconds, summary.clock.reportedSeconds)))
        }
        rows.append(("events", "\(summary.events)"))
        if summary.dryRun {
            rows.append(("beacons", "\(summary.beaconsPlanned) planned (dry run: none sent)"))
        } else {
            rows.append(("beacons", "\(summary.beaconsPlanned) planned, \(summary.beaconsDelivered) delivered, \(summary.beaconsFailed) failed"
                                    + (summary.beaconsLost > 0 ? ", \(summary.beaconsLost) lost with the app" : "")))
        }
        if let result = summary.reconciliation {
            rows.append(("sink", "received \(result.received), matched \(result.matched) of \(result.sent) sent, \(result.missing.count) missing, \(result.unexpected.count) unexpected"
                                 + (result.notSent.isEmpty ? "" : ", \(result.notSent.count) not sent before the session ended")))
        }
        if let playback = summary.playback {
            rows.append(("ending", "\(playback.ending?.rawValue ?? "none")"))
            rows.append(("reward", playback.rewardGranted ? "granted" : "not granted"))
            var frames = "\(playback.statistics.frames) decoded, \(playback.framesPresented) presented (\(playback.videoFramesPresented) pictures), \(playback.framesLate) late, \(playback.statistics.decodeErrors) decode errors"
            if playback.framesNotShown > 0 { frames += ", \(playback.framesNotShown) decoded but not shown (the video ended first)" }
            rows.append(("frames", frames))
            if let network = summary.network {
                rows.append(("network", "\(network.profile.name): first frame \(playback.startupDelay.map { $0.millisecondText + " s" } ?? "never") after the media request, "
                                        + "\(playback.rebuffers) rebuffer(s), \(playback.rebufferTime.millisecondText) s stalled (buffers \(network.startupBuffer.millisecondText) s to start, \(network.rebuffer.millisecondText) s to restart)"))
            }
            if playback.stalls > 0 {
                rows.append(("stalls", String(format: "%d (%.3f s frozen, not counted as played)", playback.stalls, playback.stallTime.seconds)))
            }
            if !playback.boundaryLateness.isEmpty, playback.maxBoundaryLateness > .zero {
                rows.append(("lateness", String(format: "worst boundary %.3f ms late, worst frame %.3f ms late",
                                                 playback.maxBoundaryLateness.seconds * 1000, playback.maxFrameLateness.seconds * 1000)))
            }
        }
        if let error = summary.error { rows.append(("error", "\(error.code): \(error.message)")) }
        if let vmap = summary.vmap { rows += VMAPRendering.rows(vmap) }
        if let tracking = summary.tracking { rows += TrackedStreamRendering.rows(tracking) }
        if let serverSide = summary.serverSide { rows += ServerSideRendering.rows(serverSide) }
        if let loading = summary.loading {
            let during = loading.steps.isEmpty ? "" : "; \(loading.steps.map(\.text).joined(separator: ", ")) while it loaded"
            let waited = loading.waited > .zero ? " (waited \(loading.waited.millisecondText) s for the app to be active)" : ""
            rows.append(("loading", "ready \(loading.ready.millisecondText) s after the request\(during); shown at \(loading.shown.millisecondText) s\(waited)"))
        }
        if !summary.ads.isEmpty {
            let places = Set(summary.ads.map(\.ad.index)).count
            rows.append(("pod", "\(summary.ads.filter { $0.error == nil && $0.outcome != .notPlayed }.count) of \(places) place(s) played"))
            rows += summary.ads.map { ("", podAdText($0)) }
        }
        rows.append(("warnings", "\(summary.warnings.count)"))
        let headline = Self.headline(summary)
        let verdict = exitCode == 0 ? style.green("\(headline) (exit 0)") : style.red("\(headline) (exit \(exitCode))")
        var lines = ["", style.bold("summary: ") + verdict]
        for (key, value) in rows {
            lines.append("  " + key.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + value)
        }
        return lines.joined(separator: "\n")
    }

    /// The session's one-word ending: how the ad ended ("skipped", not "completed") when it ran without an error,
    /// else the outcome ("ad-error").
    static func headline(_ summary: SessionSummary) -> String {
        summary.outcome == .completed ? (summary.playback?.ending?.rawValue ?? summary.outcome.rawValue) : summary.outcome.rawValue
    }
}
