import Primitives
import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// `--timeline FILE.svg`: the session as a picture. Playhead (y) against session time (x): the line climbs while
/// playing and is flat while suppressed; pause and background spans are shaded; each event is a marker on the line;
/// below, each beacon's send-to-response latency is a bar from its event's time (red when it failed), in the order
/// they were sent. Under the title, a headline: how the session ended, beacons sent and failed, the error. Labels
/// never overlap (`LabelPlacer`): one with no free place is left out, its text kept in its marker's tooltip.
enum TimelineSVG {
    static let width = 1100.0, plotHeight = 300.0, left = 70.0, right = 170.0, top = 64.0

    static func render(_ transcript: SessionTranscript, summary: SessionSummary, title: String, exitCode: Int32? = nil) -> String {
        let events = transcript.events
        let endClock = max(summary.clock.seconds, events.last?.clock.seconds ?? 0, 0.001)
        // In a pod each ad's playhead starts again at 0: the scale is the longest ad's.
        let longest = transcript.ads.isEmpty ? summary.duration?.seconds : transcript.ads.compactMap { $0.duration?.seconds }.max()
        let duration = max(longest ?? 0, events.map(\.playhead.seconds).max() ?? 0, 0.001)
        // In the order they were sent (then as logged): a lane's place says when its request went out.
        let beacons = transcript.beacons.enumerated().filter { !$0.element.dryRun }
            .sorted { ($0.element.sentAt ?? .max, $0.element.clock, $0.offset) < ($1.element.sentAt ?? .max, $1.element.clock, $1.offset) }
            .map(\.element)
        // The error has a row of its own between the axis title and the beacons' heading.
        let errorRow = summary.error == nil ? 0.0 : 24.0
        let beaconTop = top + plotHeight + 66 + errorRow
        let height = beaconTop + Double(max(beacons.count, 1)) * Plot.laneHeight + 60
        var plot = Plot(endClock: endClock, duration: duration, beaconTop: beaconTop)
        plot.svg.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="11">"##)
        plot.svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        plot.svg.append(##"<text x="\##(left)" y="22" font-size="14" font-weight="bold">\##(escape(title))</text>"##)
        // The headline: the ending, the beacons, the error.
        let failed = beacons.filter { $0.isFinalAttempt && !$0.delivered }.count
        var headline = SessionText.headline(summary) + (exitCode.map { " (exit \($0))" } ?? "")
        headline += summary.dryRun ? " · dry run, no beacons sent" : " · \(beacons.filter(\.isFinalAttempt).count) beacons sent, \(failed) failed"
        if let error = summary.error { headline += " · error \(error.code)" }
        let bad = summary.error != nil || failed > 0
        plot.svg.append(##"<text x="\##(left)" y="40" font-size="12" fill="\##(bad ? "#d1242f" : "#1a7f37")">\##(escape(headline))</text>"##)
        plot.drawVMAP(summary.vmap)
        plot.drawSpans(events)
        plot.drawStates(events)
        plot.drawPodTurns(transcript.ads)
        plot.drawAxes()
        plot.drawEvents(events)
        if let error = summary.error { plot.drawError(error) }
        plot.drawBeacons(beacons, dryRun: summary.dryRun)
        plot.svg.append("</svg>")
        return plot.svg.joined(separator: "\n") + "\n"
    }

    /// The suppression reason an event adds, if any (lifecycle and click-through; a user pause starts its span).
    static func reasonAdded(by event: PlaybackEvent) -> String? {
        switch (event.name, event.detail) {
        case (.appState, .lifecycle(.willResignActive)?): return SuppressionReason.inactive.rawValue
        case (.appState, .lifecycle(.didEnterBackground)?): return SuppressionReason.background.rawValue
        case (.click, .clickThrough(opened: true)?), (.endCardClick, .clickThrough(opened: true)?): return SuppressionReason.clickThrough.rawValue
        case (.pause, let detail): return detail?.text
        default: return nil
        }
    }

    /// The spans the app was inactive, in the background, or had a click-through open, from the events.
    static func stateBands(_ events: [PlaybackEvent], end: Double) -> [(state: String, from: Double, to: Double)] {
        var open: [String: Double] = [:]
        var bands: [(state: String, from: Double, to: Double)] = []
        func start(_ state: String, _ at: Double) { if open[state] == nil { open[state] = at } }
        func stop(_ state: String, _ at: Double) { if let from = open.removeValue(forKey: state) { bands.append((state, from, at)) } }
        for event in events {
            let at = event.clock.seconds
            switch (event.name, event.detail) {
            case (.appState, .lifecycle(.willResignActive)?): start("inactive", at)
            case (.appState, .lifecycle(.didEnterBackground)?): start("inactive", at); start("background", at)
            case (.appState, .lifecycle(.willEnterForeground)?): stop("background", at)
            case (.appState, .lifecycle(.didBecomeActive)?): stop("inactive", at)
            case (.click, .clickThrough(opened: true)?), (.endCardClick, .clickThrough(opened: true)?): start("clickThrough", at)
            case (.clickThroughClose, _): stop("clickThrough", at)
            default: break
            }
        }
        for (state, from) in open { bands.append((state, from, end)) }
        return bands.sorted { ($0.from, $0.state) < ($1.from, $1.state) }
    }

    static func bandRow(_ state: String) -> Int { state == "inactive" ? 0 : state == "background" ? 1 : 2 }
    static func bandColor(_ state: String) -> String { state == "background" ? "#8aa4c8" : state == "inactive" ? "#c5d3e6" : "#e8b86d" }
    static func bandLabel(_ state: String) -> String {
        state == "background" ? "app in background" : state == "inactive" ? "app inactive" : "click-through open"
    }

    /// The spans the ad's video was on screen and in view, from the events: from `start` to the end of its video
    /// (complete, skip, an early close, an error), while the viewport (`viewport` steps) is 50 % or more, the app
    /// active and in front, and no click-through open.
    static func inViewSpans(_ events: [PlaybackEvent], end: Double) -> [(from: Double, to: Double)] {
        var spans: [(from: Double, to: Double)] = []
        var video = false, viewport = 100.0, active = true, foreground = true, clickThrough = false
        var open: Double?
        for event in events {
            switch (event.name, event.detail) {
            case (.start, _): video = true
            case (.complete, _), (.skip, _), (.error, _), (.closeLinear, .closed(.video)?), (.close, _), (.abandoned, _): video = false
            case let (.viewport, .viewport(percent)?): viewport = percent
            case (.appState, .lifecycle(.willResignActive)?): active = false
            case (.appState, .lifecycle(.didEnterBackground)?): active = false; foreground = false
            case (.appState, .lifecycle(.willEnterForeground)?): foreground = true
            case (.appState, .lifecycle(.didBecomeActive)?): active = true
            case (.click, .clickThrough(opened: true)?), (.iconClick, .clickThrough(opened: true)?): clickThrough = true
            case (.clickThroughClose, _): clickThrough = false
            default: break
            }
            let inView = video && viewport >= PlaybackRules.viewableShare && active && foreground && !clickThrough
            let at = event.clock.seconds
            if inView, open == nil { open = at }
            if !inView, let from = open {
                if at > from { spans.append((from, at)) }
                open = nil
            }
        }
        if let from = open, end > from { spans.append((from, end)) }
        return spans
    }

    /// The spans playback stalled for media (`bufferStart` to `bufferFinish`, or to the end).
    static func stallSpans(_ events: [PlaybackEvent], end: Double) -> [(from: Double, to: Double)] {
        var spans: [(from: Double, to: Double)] = []
        var open: Double?
        for event in events {
            if event.name == .bufferStart { open = open ?? event.clock.seconds }
            if event.name == .bufferFinish || event.name == .close || event.name == .error, let from = open {
                spans.append((from, event.clock.seconds))
                open = nil
            }
        }
        if let from = open { spans.append((from, end)) }
        return spans
    }

    /// A round number of milliseconds at or above `ms` (1, 2, 5, 10, 20, 50, …), for the latency scale.
    static func niceScale(_ ms: Double) -> Double {
        var scale = 1.0
        while scale < ms {
            for factor in [2.0, 2.5, 2.0] where scale < ms { scale *= factor }
        }
        return scale
    }

    static func ticks(_ span: Double) -> [Double] {
        let steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600]
        let step = steps.first { span / $0 <= 10 } ?? span / 10
        return stride(from: 0, through: span + 1e-9, by: step).map { $0 }
    }

    static func label(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value) }
    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
    static func escape(_ text: String) -> String { JUnitReport.escape(text) }
}
