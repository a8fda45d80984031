import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

extension TimelineSVG {
    /// The picture being drawn: its scales (session clock across, playhead up), the elements so far in drawing order,
    /// and the labels placed so far (none may cover another).
    struct Plot {
        static let laneHeight = 14.0
        let endClock: Double
        let duration: Double
        /// Where the beacons' lanes begin.
        let beaconTop: Double
        var svg: [String] = []
        var labels = LabelPlacer(bounds: LabelPlacer.Box(minX: left + 1, minY: top, maxX: width - 4, maxY: top + plotHeight - 1))

        init(endClock: Double, duration: Double, beaconTop: Double) {
            self.endClock = endClock
            self.duration = duration
            self.beaconTop = beaconTop
        }

        var plotWidth: Double { width - left - right }
        func x(_ clock: Double) -> Double { left + clock / endClock * plotWidth }
        func y(_ playhead: Double) -> Double { top + plotHeight - playhead / duration * plotHeight }

    /// Suppressed spans and stalls for media: bands over the plot, labelled.
    mutating func drawSpans(_ events: [PlaybackEvent]) {
        // Suppressed spans: from each pause to the next resume (or the end), labelled with every reason seen in it.
        var pauseStart: (clock: Double, reasons: [String])?
        var spans: [(Double, Double, [String])] = []
        for event in events {
            if event.name == .pause { pauseStart = (event.clock.seconds, [event.detailText ?? "pause"]) }
            if var open = pauseStart, let reason = TimelineSVG.reasonAdded(by: event), !open.reasons.contains(reason) {
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
        for (from, to) in TimelineSVG.stallSpans(events, end: endClock) {
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top))" width="\##(f(max(1, x(to) - x(from))))" height="\##(f(plotHeight))" fill="#f4dada"><title>stalled: buffering \##(f(from))–\##(f(to)) s</title></rect>"##)
            if let spot = labels.place("stalled: buffering", size: 11, spots: (0..<4).map { LabelPlacer.Spot(x: x(from) + 3, y: top + 24 + Double($0) * 12) }) {
                svg.append(##"<text x="\##(f(spot.x))" y="\##(f(spot.y))" fill="#833">stalled: buffering</text>"##)
            }
        }
    }

    /// The app's states above the plot with their legend, and where the ad was in view along its bottom.
    mutating func drawStates(_ events: [PlaybackEvent]) {
        // Above the plot, one band per state while it lasted (they can overlap): the app inactive, in the
        // background, a click-through open; a legend at the right names them.
        let bands = TimelineSVG.stateBands(events, end: endClock)
        for band in bands {
            let bandY = top - 6 - Double(TimelineSVG.bandRow(band.state)) * 5
            svg.append(##"<rect x="\##(f(x(band.from)))" y="\##(f(bandY))" width="\##(f(max(1, x(band.to) - x(band.from))))" height="4" fill="\##(TimelineSVG.bandColor(band.state))"><title>\##(escape(TimelineSVG.bandLabel(band.state))) \##(f(band.from))–\##(f(band.to)) s</title></rect>"##)
        }
        // The legend: in the title's row, at the right end of the plot.
        var legendX = left + plotWidth - 370
        for state in ["inactive", "background", "clickThrough"] where bands.contains(where: { $0.state == state }) {
            svg.append(##"<rect x="\##(f(legendX))" y="\##(f(14))" width="14" height="4" fill="\##(TimelineSVG.bandColor(state))"/>"##)
            svg.append(##"<text x="\##(f(legendX + 18))" y="\##(f(19))" font-size="10" fill="#556">\##(TimelineSVG.bandLabel(state))</text>"##)
            legendX += 125
        }

        // Where the ad was in view (half its pixels or more, the app active and in front, no click-through over it)
        // while its video was on screen: a green band along the bottom of the plot.
        for (from, to) in TimelineSVG.inViewSpans(events, end: endClock) {
            svg.append(##"<rect x="\##(f(x(from)))" y="\##(f(top + plotHeight - 5))" width="\##(f(max(1, x(to) - x(from))))" height="5" fill="#7cc47f"><title>in view \##(f(from))–\##(f(to)) s</title></rect>"##)
        }
    }

    /// A pod's turns: a dashed line where each ad's began.
    mutating func drawPodTurns(_ ads: [PodAdReport]) {
        // An ad pod: a dashed line where each ad's turn began, labelled with its place (and what became of it).
        for ad in ads {
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
    }

    /// The axes, their ticks and the grid.
    mutating func drawAxes() {
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
    }

    /// The playhead line and a marker for each event that matters, labelled where a label fits.
    mutating func drawEvents(_ events: [PlaybackEvent]) {
        // The playhead line through every event (events are its corners: flat between pause and resume); in a VMAP
        // session one line per break, the content between them left blank.
        var lines: [[String]] = []
        var current: Int?? = .none
        for event in events {
            if current == nil || current! != event.adBreak { lines.append([]) }
            current = .some(event.adBreak)
            lines[lines.count - 1].append("\(f(x(event.clock.seconds))),\(f(y(event.playhead.seconds)))")
        }
        for points in lines where !points.isEmpty {
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
    }

    /// The session's error, in its own row above the beacons' heading.
    mutating func drawError(_ error: SessionError) {
        // Cut to the plot's width (the whole text is its tooltip).
        let full = "error \(error.code): \(error.message)"
        let fits = Int((width - left - 8) / (12 * LabelPlacer.characterWidth))
        let shown = full.count > fits ? String(full.prefix(fits - 1)) + "…" : full
        svg.append(##"<text x="\##(left)" y="\##(f(top + plotHeight + 60))" fill="#d1242f" font-weight="bold" font-size="12">\##(escape(shown))<title>\##(escape(full))</title></text>"##)
    }

    /// The beacons, one lane each.
    mutating func drawBeacons(_ beacons: [BeaconRecord], dryRun: Bool) {
        // Beacons: one lane each, starting at its event's clock; the bar's length is its latency on a scale of its
        // own (milliseconds are invisible on a scale of seconds).
        let maxLatency = beacons.compactMap { $0.latency?.seconds }.max() ?? 0
        let scaleMs = TimelineSVG.niceScale(maxLatency * 1000)
        let pixelsPerMs = 120 / scaleMs
        svg.append(##"<text x="\##(left)" y="\##(f(beaconTop - 10))" font-weight="bold">beacons: one lane each, from its event's clock; bar length = send → response latency (120 px = \##(label(scaleMs)) ms)</text>"##)
        for (index, beacon) in beacons.enumerated() {
            let laneY = beaconTop + Double(index) * Plot.laneHeight
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
            svg.append(##"<text x="\##(left)" y="\##(f(beaconTop + 8))" fill="#777">\##(dryRun ? "no beacons sent (dry run)" : "no beacons sent")</text>"##)
        }
    }
    }
}
