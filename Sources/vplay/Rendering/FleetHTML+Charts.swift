import AdSession
import Foundation

extension FleetHTML {
    /// A bar.
    struct Bar {
        var label: String
        var value: Double
        var text: String
        var bad = false
    }

    /// Bars in an SVG (`id` on the SVG; each bar a `g.barset` with its label and value as data attributes).
    static func bars(_ id: String, _ bars: [Bar], maximum: Double, unit: String) -> String {
        let width = 640.0, height = 220.0, left = 48.0, bottom = 34.0, top = 14.0
        let slot = (width - left - 8) / Double(max(1, bars.count))
        var nodes = ["<line class=\"axis\" x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(height - bottom)\" y2=\"\(height - bottom)\"/>",
                     "<text x=\"4\" y=\"12\">\(e(unit))</text>"]
        for (index, bar) in bars.enumerated() {
            let h = maximum > 0 ? bar.value / maximum * (height - top - bottom) : 0
            let x = left + Double(index) * slot + slot * 0.15
            nodes.append("""
                <g class="barset" data-label="\(e(bar.label))" data-value="\(bar.value)"><rect class="bar\(bar.bad ? " bad" : "")" x="\(f(x))" y="\(f(height - bottom - h))" width="\(f(slot * 0.7))" height="\(f(max(0, h)))"/>\
                <text x="\(f(x + slot * 0.35))" y="\(f(height - bottom - h - 3))" text-anchor="middle">\(e(bar.text))</text>\
                <text x="\(f(x + slot * 0.35))" y="\(f(height - bottom + 14))" text-anchor="middle">\(e(bar.label))</text></g>
                """)
        }
        return "<svg id=\"\(id)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(e(unit))\">\(nodes.joined())</svg>"
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Reach by quartile: how many sessions played each milestone, and their share.
    static func reach(_ report: FleetReport) -> String {
        let sessions = report.population.scenarios.values.reduce(0, +)
        let names = [("impression", "impr."), ("start", "start"), ("firstQuartile", "Q1"), ("midpoint", "mid"), ("thirdQuartile", "Q3"), ("complete", "compl.")]
        let chart = bars("reach", names.map { name, label in
            let count = report.population.events[name] ?? 0
            let share = sessions > 0 ? Double(count) / Double(sessions) * 100 : 0
            return Bar(label: label, value: Double(count), text: "\(number(count)) · \(String(format: "%.1f", share)) %")
        }, maximum: Double(max(sessions, 1)), unit: "sessions")
        return "<h2>Reach by quartile</h2><section>\(chart)<p class=\"facts\">\(number(sessions)) sessions played.</p></section>"
    }

    /// Beacons by status: expected, sent, delivered, failed, received; failures by reason.
    static func beacons(_ report: FleetReport) -> String {
        let rows = report.population.beacons
        let expected = rows.reduce(0) { $0 + $1.expected }, sent = rows.reduce(0) { $0 + $1.sent }, delivered = rows.reduce(0) { $0 + $1.delivered }
        let failed = report.population.failures.values.reduce(0, +)
        var list = [Bar(label: "expected", value: Double(expected), text: number(expected)), Bar(label: "sent", value: Double(sent), text: number(sent)),
                    Bar(label: "delivered", value: Double(delivered), text: number(delivered)),
                    Bar(label: "failed", value: Double(failed), text: number(failed), bad: failed > 0)]
        if rows.contains(where: { $0.received != nil }) {
            let received = rows.reduce(0) { $0 + ($1.received ?? 0) }
            list.append(Bar(label: "received", value: Double(received), text: number(received)))
        }
        let reasons = report.population.failures.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "<tr><td>\(e($0.key))</td><td class=\"n\">\(number($0.value))</td></tr>" }.joined()
        let failures = reasons.isEmpty ? "<p class=\"ok\">No beacon failed.</p>" : "<table id=\"failures\"><tr><th>failure</th><th class=\"n\">beacons</th></tr>\(reasons)</table>"
        return "<h2>Beacons by status</h2><section>\(bars("status", list, maximum: Double(max(expected, sent, 1)), unit: "beacons"))\(failures)</section>"
    }

    /// Latency percentiles, and their course over the run (intervals of a few seconds, at most about 120 of them).
    static func latency(_ report: FleetReport) -> String {
        let latency = report.performance.latency
        let figures = [("p50", latency.p50), ("p90", latency.p90), ("p99", latency.p99), ("max", latency.max)]
        let table = "<table id=\"latency\"><tr>" + figures.map { "<th class=\"n\">\($0.0)</th>" }.joined() + "<th class=\"n\">answers</th></tr><tr>"
            + figures.map { "<td class=\"n\" data-name=\"\($0.0)\">\(ms($0.1))</td>" }.joined() + "<td class=\"n\">\(number(latency.count))</td></tr></table>"
        guard let timeline = report.performance.latencyBySecond, !timeline.counts.isEmpty else {
            return "<h2>Beacon latency</h2><section>\(table)<p class=\"facts\">No latency over time in this report.</p></section>"
        }
        let last = timeline.counts.map { $0[0] }.max() ?? 0
        let width = max(1, Int((Double(last + 1) / 120).rounded(.up)))
        let points = timeline.percentiles([0.5, 0.9, 0.99], width: width)
        return "<h2>Beacon latency</h2><section>\(table)\(overTime(points, width: width))</section>"
    }

    /// p50, p90 and p99 per interval as lines over the run.
    static func overTime(_ points: [(start: Int, count: Int, values: [Double])], width: Int) -> String {
        let w = 640.0, h = 220.0, left = 56.0, bottom = 30.0, top = 12.0
        let end = Double((points.last?.start ?? 0) + width), top99 = max(points.map { $0.values[2] }.max() ?? 0, 0.000_001)
        func x(_ second: Int) -> Double { left + (Double(second) + Double(width) / 2) / max(end, 1) * (w - left - 8) }
        func y(_ seconds: Double) -> Double { h - bottom - seconds / top99 * (h - top - bottom) }
        var nodes = ["<line class=\"axis\" x1=\"\(left)\" x2=\"\(w - 8)\" y1=\"\(h - bottom)\" y2=\"\(h - bottom)\"/>",
                     "<text x=\"4\" y=\"\(f(top + 4))\">\(ms(top99))</text><text x=\"4\" y=\"\(f(h - bottom))\">0 ms</text>",
                     "<text x=\"\(f(left))\" y=\"\(f(h - 8))\">0 s</text><text x=\"\(f(w - 60))\" y=\"\(f(h - 8))\">\(Int(end)) s</text>"]
        for (index, name) in ["p50", "p90", "p99"].enumerated() {
            let line = points.map { "\(f(x($0.start))),\(f(y($0.values[index])))" }.joined(separator: " ")
            nodes.append("<polyline class=\"line \(name)\" data-name=\"\(name)\" points=\"\(line)\"/>")
            nodes.append("<text class=\"\(name)\" x=\"\(f(left + 10 + Double(index) * 48))\" y=\"\(f(top + 4))\">\(name)</text>")
        }
        let caption = "<p class=\"facts\">Percentiles of each \(width) s of the run (within 25 %: answers are counted in buckets), \(points.count) intervals.</p>"
        return "<svg id=\"latency-over-time\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"latency over time\">\(nodes.joined())</svg>\(caption)"
    }

    /// Every tracking URL with its counts.
    static func urls(_ report: FleetReport) -> String {
        let hasSink = report.population.beacons.contains { $0.received != nil }
        let head = "<tr><th>event</th><th>ad</th><th>template</th><th class=\"n\">expected</th><th class=\"n\">sent</th><th class=\"n\">delivered</th>"
            + (hasSink ? "<th class=\"n\">received</th>" : "") + "</tr>"
        let rows = report.population.beacons.map { beacon in
            "<tr><td>\(e(beacon.event))</td><td>\(beacon.ad.map(String.init) ?? "")</td><td class=\"tpl\">\(e(beacon.template))</td>"
                + "<td class=\"n\">\(number(beacon.expected))</td><td class=\"n\">\(number(beacon.sent))</td><td class=\"n\">\(number(beacon.delivered))</td>"
                + (hasSink ? "<td class=\"n\">\(beacon.received.map(number) ?? "")</td>" : "") + "</tr>"
        }.joined()
        return "<h2>Tracking URLs</h2><section><table id=\"urls\">\(head)\(rows)</table></section>"
    }

    /// Per simulated network: sessions, failed loads, stalls, completes.
    static func networks(_ networks: [String: FleetReport.NetworkPopulation]) -> String {
        let rows = networks.keys.sorted().map { name in
            let network = networks[name]!
            return "<tr><td>\(e(name))</td><td class=\"n\">\(number(network.sessions))</td><td class=\"n\">\(number(network.failedToLoad))</td>"
                + "<td class=\"n\">\(number(network.sessionsThatStalled))</td><td class=\"n\">\(String(format: "%.1f", network.stalledSeconds))</td>"
                + "<td class=\"n\">\(number(network.reached["complete"] ?? 0))</td><td class=\"n\">\(number(network.beaconsSent))</td>"
                + "<td class=\"n\">\(number(network.beaconsDelivered))</td><td class=\"n\">\(number(network.beaconsFailed))</td></tr>"
        }.joined()
        return "<h2>Networks</h2><section><table id=\"networks\"><tr><th>network</th><th class=\"n\">sessions</th><th class=\"n\">failed to load</th>"
            + "<th class=\"n\">stalled</th><th class=\"n\">stalled s</th><th class=\"n\">complete</th>"
            + "<th class=\"n\">beacons sent</th><th class=\"n\">delivered</th><th class=\"n\">failed</th></tr>\(rows)</table></section>"
    }
}
