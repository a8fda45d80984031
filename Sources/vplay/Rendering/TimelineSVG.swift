import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// `--timeline FILE.svg`: the session as a picture. Playhead (y) against session time (x): the line climbs while
/// playing and is flat while suppressed; pause and background spans are shaded; each event is a marker on the line;
/// below, each beacon's send-to-response latency is a bar from its event's time (red when it failed).
enum TimelineSVG {
    static let width = 1100.0, plotHeight = 300.0, left = 70.0, right = 170.0, top = 40.0

    static func render(_ transcript: SessionTranscript, summary: SessionSummary, title: String) -> String {
        let events = transcript.events
        let endClock = max(summary.clock.seconds, events.last?.clock.seconds ?? 0, 0.001)
        let duration = max(summary.duration?.seconds ?? 0, events.map(\.playhead.seconds).max() ?? 0, 0.001)
        let beacons = transcript.beacons.filter { !$0.dryRun }
        let laneHeight = 14.0
        let beaconTop = top + plotHeight + 66
        let height = beaconTop + Double(max(beacons.count, 1)) * laneHeight + 60
        let plotWidth = width - left - right
        func x(_ clock: Double) -> Double { left + clock / endClock * plotWidth }
        func y(_ playhead: Double) -> Double { top + plotHeight - playhead / duration * plotHeight }

        var svg = [##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="11">"##]
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        svg.append(##"<text x="\##(left)" y="22" font-size="14" font-weight="bold">\##(escape(title))</text>"##)

        // Suppressed spans: from each pause to the next resume (or the end).
        var pauseStart: (clock: Double, reason: String)?
        var spans: [(Double, Double, String)] = []
        for event in events {
            if event.name == .pause { pauseStart = (event.clock.seconds, event.detail ?? "pause") }
            // A span that went to the background is labelled so, even when it began with resign-active.
            if event.name == .appState, event.detail == "didEnterBackground", let start = pauseStart { pauseStart = (start.clock, "background") }
            if event.name == .resume, let start = pauseStart { spans.append((start.clock, event.clock.seconds, start.reason)); pauseStart = nil }
        }
        if let start = pauseStart { spans.append((start.clock, endClock, start.reason)) }
        for (from, to, reason) in spans {
            let color = reason == "background" || reason == "inactive" ? "#cfd8e3" : reason == "clickThrough" ? "#f3e0c0" : "#e4e4e4"
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top))" width="\##(f(max(1, x(to) - x(from))))" height="\##(f(plotHeight))" fill="\##(color)"><title>\##(escape(reason)) \##(f(from))–\##(f(to)) s</title></rect>"##)
            svg.append(##"<text x="\##(f(x(from) + 3))" y="\##(f(top + 12))" fill="#556">\##(escape(reason))</text>"##)
        }

        // Axes and grid.
        svg.append(##"<line x1="\##(left)" y1="\##(f(top + plotHeight))" x2="\##(f(width - right))" y2="\##(f(top + plotHeight))" stroke="black"/>"##)
        svg.append(##"<line x1="\##(left)" y1="\##(f(top))" x2="\##(left)" y2="\##(f(top + plotHeight))" stroke="black"/>"##)
        for tick in ticks(endClock) {
            svg.append(##"<line x1="\##(f(x(tick)))" y1="\##(f(top + plotHeight))" x2="\##(f(x(tick)))" y2="\##(f(top + plotHeight + 4))" stroke="black"/>"##)
            svg.append(##"<text x="\##(f(x(tick)))" y="\##(f(top + plotHeight + 16))" text-anchor="middle">\##(label(tick))</text>"##)
        }
        for tick in ticks(duration) {
            svg.append(##"<line x1="\##(left - 4)" y1="\##(f(y(tick)))" x2="\##(f(width - right))" y2="\##(f(y(tick)))" stroke="#eee"/>"##)
            svg.append(##"<text x="\##(left - 8)" y="\##(f(y(tick) + 4))" text-anchor="end">\##(label(tick))</text>"##)
        }
        svg.append(##"<text x="\##(f(left + plotWidth / 2))" y="\##(f(top + plotHeight + 32))" text-anchor="middle">session clock (s)</text>"##)
        svg.append(##"<text x="16" y="\##(f(top + plotHeight / 2))" transform="rotate(-90 16 \##(f(top + plotHeight / 2)))" text-anchor="middle">playhead (s)</text>"##)

        // The playhead line through every event (events are its corners: flat between pause and resume).
        let points = events.map { "\(f(x($0.clock.seconds))),\(f(y($0.playhead.seconds)))" }
        if !points.isEmpty {
            svg.append(##"<polyline points="\##(points.joined(separator: " "))" fill="none" stroke="#1f6feb" stroke-width="2"/>"##)
        }
        let marked: Set<PlaybackEvent.Name> = [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .progress, .skippable,
                                                .pause, .resume, .mute, .unmute, .skip, .click, .clickThroughClose, .closeLinear, .endCardShown,
                                                .endCardClick, .rewind, .rewarded, .rewardForfeited, .rejected, .abandoned]
        var labelRow: [Double: Int] = [:]
        for event in events where marked.contains(event.name) {
            let cx = x(event.clock.seconds), cy = y(event.playhead.seconds)
            let color = event.name == .rejected || event.name == .rewardForfeited || event.name == .abandoned ? "#d1242f" : event.name == .rewarded ? "#1a7f37" : "#0b3d91"
            svg.append(##"<circle cx="\##(f(cx))" cy="\##(f(cy))" r="4" fill="\##(color)"><title>\##(escape(event.name.rawValue)) playhead \##(f(event.playhead.seconds)) s, clock \##(f(event.clock.seconds)) s\##(event.detail.map { " (\(escape($0)))" } ?? "")</title></circle>"##)
            let key = (cx / 6).rounded()
            let row = labelRow[key, default: 0]
            labelRow[key] = row + 1
            svg.append(##"<text x="\##(f(cx + 6))" y="\##(f(cy < top + 70 ? cy + 14 + Double(row) * 11 : cy - 6 - Double(row) * 11))" fill="\##(color)">\##(escape(event.name.rawValue))</text>"##)
        }

        // Beacons: one lane each, a bar from the event's clock for its latency.
        svg.append(##"<text x="\##(left)" y="\##(f(beaconTop - 10))" font-weight="bold">beacons: send → response (bar length = latency, not to the clock's scale when shorter than 2 px)</text>"##)
        for (index, beacon) in beacons.enumerated() {
            let laneY = beaconTop + Double(index) * laneHeight
            let start = x(beacon.clock.seconds)
            let latency = beacon.latency?.seconds ?? 0
            let length = max(2, latency / endClock * plotWidth)
            let color = beacon.delivered ? "#1a7f37" : "#d1242f"
            let status = beacon.status.map(String.init) ?? (beacon.error ?? "failed")
            svg.append(##"<rect x="\##(f(start))" y="\##(f(laneY))" width="\##(f(length))" height="9" fill="\##(color)"><title>\##(escape(beacon.event)) [\##(escape(beacon.source))] \##(escape(status)) \##(f(latency * 1000)) ms\##n\##(escape(beacon.url))</title></rect>"##)
            svg.append(##"<text x="\##(f(start + length + 4))" y="\##(f(laneY + 8))" font-size="9">\##(escape(beacon.event)) \##(escape(status)) \##(String(format: "%.1f", latency * 1000)) ms</text>"##)
        }
        if beacons.isEmpty {
            svg.append(##"<text x="\##(left)" y="\##(f(beaconTop + 8))" fill="#777">no beacons sent (dry run)</text>"##)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
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
