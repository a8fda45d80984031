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
        let laneHeight = 14.0
        // The error has a row of its own between the axis title and the beacons' heading.
        let errorRow = summary.error == nil ? 0.0 : 24.0
        let beaconTop = top + plotHeight + 66 + errorRow
        let height = beaconTop + Double(max(beacons.count, 1)) * laneHeight + 60
        let plotWidth = width - left - right
        func x(_ clock: Double) -> Double { left + clock / endClock * plotWidth }
        func y(_ playhead: Double) -> Double { top + plotHeight - playhead / duration * plotHeight }

        var svg = [##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="11">"##]
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        svg.append(##"<text x="\##(left)" y="22" font-size="14" font-weight="bold">\##(escape(title))</text>"##)
        // The headline: the ending, the beacons, the error.
        let failed = beacons.filter { $0.isFinalAttempt && !$0.delivered }.count
        var headline = SessionText.headline(summary) + (exitCode.map { " (exit \($0))" } ?? "")
        headline += summary.dryRun ? " · dry run, no beacons sent" : " · \(beacons.filter(\.isFinalAttempt).count) beacons sent, \(failed) failed"
        if let error = summary.error { headline += " · error \(error.code)" }
        let bad = summary.error != nil || failed > 0
        svg.append(##"<text x="\##(left)" y="40" font-size="12" fill="\##(bad ? "#d1242f" : "#1a7f37")">\##(escape(headline))</text>"##)
        // Labels in the plot: none may cover another.
        var labels = LabelPlacer(bounds: LabelPlacer.Box(minX: left + 1, minY: top, maxX: width - 4, maxY: top + plotHeight - 1))

        // Suppressed spans: from each pause to the next resume (or the end), labelled with every reason seen in it.
        var pauseStart: (clock: Double, reasons: [String])?
        var spans: [(Double, Double, [String])] = []
        for event in events {
            if event.name == .pause { pauseStart = (event.clock.seconds, [event.detailText ?? "pause"]) }
            if var open = pauseStart, let reason = Self.reasonAdded(by: event), !open.reasons.contains(reason) {
                open.reasons.append(reason)
                pauseStart = open
            }
            if event.name == .resume, let start = pauseStart { spans.append((start.clock, event.clock.seconds, start.reasons)); pauseStart = nil }
        }
        if let start = pauseStart { spans.append((start.clock, endClock, start.reasons)) }
        for (from, to, reasons) in spans {
            let label = "paused: " + reasons.joined(separator: " + ")
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top))" width="\##(f(max(1, x(to) - x(from))))" height="\##(f(plotHeight))" fill="#e9edf2"><title>\##(escape(label)) \##(f(from))–\##(f(to)) s</title></rect>"##)
            if let spot = labels.place(label, size: 11, spots: (0..<4).map { LabelPlacer.Spot(x: x(from) + 3, y: top + 12 + Double($0) * 12) }) {
                svg.append(##"<text x="\##(f(spot.x))" y="\##(f(spot.y))" fill="#556">\##(escape(label))</text>"##)
            }
        }
        // Stalls for media under a simulated network: a band over the plot (the clock ran, the playhead did not).
        for (from, to) in Self.stallSpans(events, end: endClock) {
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top))" width="\##(f(max(1, x(to) - x(from))))" height="\##(f(plotHeight))" fill="#f4dada"><title>stalled: buffering \##(f(from))–\##(f(to)) s</title></rect>"##)
            if let spot = labels.place("stalled: buffering", size: 11, spots: (0..<4).map { LabelPlacer.Spot(x: x(from) + 3, y: top + 24 + Double($0) * 12) }) {
                svg.append(##"<text x="\##(f(spot.x))" y="\##(f(spot.y))" fill="#833">stalled: buffering</text>"##)
            }
        }
        // Above the plot, one band per state while it lasted (they can overlap): the app inactive, in the
        // background, a click-through open; a legend at the right names them.
        let bands = Self.stateBands(events, end: endClock)
        for band in bands {
            let bandY = top - 6 - Double(Self.bandRow(band.state)) * 5
            svg.append(##"<rect x="\##(f(x(band.from)))" y="\##(f(bandY))" width="\##(f(max(1, x(band.to) - x(band.from))))" height="4" fill="\##(Self.bandColor(band.state))"><title>\##(escape(Self.bandLabel(band.state))) \##(f(band.from))–\##(f(band.to)) s</title></rect>"##)
        }
        // The legend: in the title's row, at the right end of the plot.
        var legendX = left + plotWidth - 370
        for state in ["inactive", "background", "clickThrough"] where bands.contains(where: { $0.state == state }) {
            svg.append(##"<rect x="\##(f(legendX))" y="\##(f(14))" width="14" height="4" fill="\##(Self.bandColor(state))"/>"##)
            svg.append(##"<text x="\##(f(legendX + 18))" y="\##(f(19))" font-size="10" fill="#556">\##(Self.bandLabel(state))</text>"##)
            legendX += 125
        }

        // Where the ad was in view (half its pixels or more, the app active and in front, no click-through over it)
        // while its video was on screen: a green band along the bottom of the plot.
        for (from, to) in Self.inViewSpans(events, end: endClock) {
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top + plotHeight - 5))" width="\##(f(max(1, x(to) - x(from))))" height="5" fill="#7cc47f"><title>in view \##(f(from))–\##(f(to)) s</title></rect>"##)
        }

        // An ad pod: a dashed line where each ad's turn began, labelled with its place (and what became of it).
        for ad in transcript.ads {
            guard let start = ad.start?.seconds else { continue }
            let bx = x(start)
            var text = "ad \(ad.ad.index)" + (ad.substitute ? " (substitute)" : "")
            if ad.outcome == .failed || ad.outcome == .cut || ad.outcome == .notPlayed {
                text += ": \(ad.outcome.rawValue)" + (ad.error.map { " \($0.code.rawValue)" } ?? "")
            }
            let color = ad.error == nil && ad.outcome != .notPlayed ? "#6e40c9" : "#d1242f"
            svg.append(##"<line x1="\##(f(bx))" y1="\##(f(top))" x2="\##(f(bx))" y2="\##(f(top + plotHeight))" stroke="\##(color)" stroke-dasharray="4 3"><title>\##(escape(SessionText.podAdText(ad)))</title></line>"##)
            if let spot = labels.place(text, size: 10, spots: (0..<6).map { LabelPlacer.Spot(x: bx + 3, y: top + plotHeight - 8 - Double($0) * 12) }) {
                svg.append(##"<text x="\##(f(spot.x))" y="\##(f(spot.y))" fill="\##(color)" font-size="10">\##(escape(text))</text>"##)
            }
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
                                                .endCardClick, .rewind, .rewarded, .rewardForfeited, .rejected, .abandoned, .error,
                                                .viewable, .notViewable, .viewUndetermined, .viewport]
        for event in events where marked.contains(event.name) {
            let cx = x(event.clock.seconds), cy = y(event.playhead.seconds)
            let color = [.rejected, .rewardForfeited, .abandoned, .error].contains(event.name) ? "#d1242f" : event.name == .rewarded ? "#1a7f37" : "#0b3d91"
            svg.append(##"<circle cx="\##(f(cx))" cy="\##(f(cy))" r="4" fill="\##(color)"><title>\##(escape(event.name.rawValue)) playhead \##(f(event.playhead.seconds)) s, clock \##(f(event.clock.seconds)) s\##(event.detailText.map { " (\(escape($0)))" } ?? "")</title></circle>"##)
            // Above the marker, then below, then to its left, stacked further out each time.
            let name = event.name.rawValue
            let above = (0..<8).map { LabelPlacer.Spot(x: cx + 6, y: cy - 6 - Double($0) * 11) }
            let below = (0..<8).map { LabelPlacer.Spot(x: cx + 6, y: cy + 14 + Double($0) * 11) }
            let leftSide = (0..<8).flatMap { [LabelPlacer.Spot(x: cx - 6, y: cy - 6 - Double($0) * 11, anchorsEnd: true),
                                              LabelPlacer.Spot(x: cx - 6, y: cy + 14 + Double($0) * 11, anchorsEnd: true)] }
            if let spot = labels.place(name, size: 11, spots: cy < top + 70 ? below + above + leftSide : above + below + leftSide) {
                svg.append(##"<text x="\##(f(spot.x))" y="\##(f(spot.y))" fill="\##(color)"\##(spot.anchorsEnd ? #" text-anchor="end""# : "")>\##(escape(name))</text>"##)
            }
        }
        if labels.leftOut > 0 {
            svg.append(##"<text x="\##(f(width - right))" y="\##(f(top + plotHeight + 43))" text-anchor="end" font-size="10" fill="#777">\##(labels.leftOut) label(s) left out where they would overlap: hover a marker</text>"##)
        }

        if let error = summary.error {
            // Cut to the plot's width (the whole text is its tooltip), in its own row above the beacons' heading.
            let full = "error \(error.code): \(error.message)"
            let fits = Int((width - left - 8) / (12 * LabelPlacer.characterWidth))
            let shown = full.count > fits ? String(full.prefix(fits - 1)) + "…" : full
            svg.append(##"<text x="\##(left)" y="\##(f(top + plotHeight + 60))" fill="#d1242f" font-weight="bold" font-size="12">\##(escape(shown))<title>\##(escape(full))</title></text>"##)
        }

        // Beacons: one lane each, starting at its event's clock; the bar's length is its latency on a scale of its
        // own (milliseconds are invisible on a scale of seconds).
        let maxLatency = beacons.compactMap { $0.latency?.seconds }.max() ?? 0
        let scaleMs = Self.niceScale(maxLatency * 1000)
        let pixelsPerMs = 120 / scaleMs
        svg.append(##"<text x="\##(left)" y="\##(f(beaconTop - 10))" font-weight="bold">beacons: one lane each, from its event's clock; bar length = send → response latency (120 px = \##(label(scaleMs)) ms)</text>"##)
        for (index, beacon) in beacons.enumerated() {
            let laneY = beaconTop + Double(index) * laneHeight
            let start = x(beacon.clock.seconds)
            let latency = beacon.latency?.seconds ?? 0
            let length = max(1, latency * 1000 * pixelsPerMs)
            let color = beacon.delivered ? "#1a7f37" : "#d1242f"
            let status = beacon.status.map(String.init) ?? (beacon.error ?? "failed")
            let text = "\(beacon.event) \(status) \(String(format: "%.1f", latency * 1000)) ms"
            svg.append(##"<rect x="\##(f(start))" y="\##(f(laneY))" width="\##(f(length))" height="9" fill="\##(color)"><title>\##(escape(beacon.event)) [\##(escape(beacon.source))] \##(escape(status)) \##(f(latency * 1000)) ms\##n\##(escape(beacon.url))</title></rect>"##)
            // Labels that would run off the right edge go to the left of the bar instead.
            let fitsRight = start + length + 4 + Double(text.count) * 5.2 < width - 4
            let labelX = fitsRight ? start + length + 4 : start - 4
            svg.append(##"<text x="\##(f(labelX))" y="\##(f(laneY + 8))" font-size="9"\##(fitsRight ? "" : #" text-anchor="end""#)>\##(escape(text))</text>"##)
        }
        if beacons.isEmpty {
            svg.append(##"<text x="\##(left)" y="\##(f(beaconTop + 8))" fill="#777">\##(summary.dryRun ? "no beacons sent (dry run)" : "no beacons sent")</text>"##)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
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
