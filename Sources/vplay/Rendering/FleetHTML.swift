import AdSession
import Foundation
import Primitives

/// `fleet --html FILE` (and `vplay merge --html`): the fleet report as one self-contained HTML page — reach by quartile,
/// beacons by status, latency percentiles and their course over the run, thresholds, every tracking URL — readable
/// offline: its styles and SVG charts are inline, it runs no script and its Content-Security-Policy allows nothing
/// else to load.
enum FleetHTML {
    static func page(_ report: FleetReport) -> String {
        let fleet = report.fleet
        let title = "vplay fleet: \(fleet.sessions) sessions of \(fleet.tag)"
        var body = [header(report), verdicts(report), reach(report), beacons(report), latency(report), urls(report)]
        if let networks = report.population.networks, !networks.isEmpty { body.append(self.networks(networks)) }
        return document(title: title, body: body, source: "the fleet report")
    }

    /// The page around `body`: no script, inline styles, nothing else loaded.
    static func document(title: String, body: [String], source: String) -> String {
        """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title>
            <style>\(style)</style></head>
            <body><main>
            \(body.joined(separator: "\n"))
            <footer>Written by vplay \(e(VPlayVersion.current)) from \(e(source)); nothing on this page is fetched.</footer>
            </main></body></html>

            """
    }

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9;margin:0}main{max-width:1100px;margin:0 auto;padding:24px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:15px;margin:20px 0 6px}article{border-top:2px solid #dde1e6;margin-top:28px}section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 16px;margin:12px 0}
        .facts{color:#57606a}.ok{color:#1a7f37}.fail{color:#cf222e;font-weight:600}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:3px 8px;border-bottom:1px solid #eef0f2;vertical-align:top}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}.tpl{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
        svg text{font-size:11px;fill:#1b1f24}.bar{fill:#4a7bd0}.bar.bad{fill:#cf222e}.axis{stroke:#8c959f}.p50{stroke:#4a7bd0}.p90{stroke:#bf8700}.p99{stroke:#cf222e}
        .line{fill:none;stroke-width:2}footer{color:#8c959f;margin-top:24px;font-size:12px}
        """

    /// HTML-escaped.
    static func e(_ text: String) -> String { JUnitReport.escape(text) }

    static func number(_ value: Int) -> String { value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    static func header(_ report: FleetReport) -> String {
        let fleet = report.fleet, performance = report.performance
        let shards = fleet.shardCount > 1 ? " · shards \(fleet.shards.map(String.init).joined(separator: ", ")) of \(fleet.shardCount)" : ""
        return """
            <h1 id="title">Fleet of <span id="sessions">\(number(fleet.sessions))</span> sessions</h1>
            <p class="facts">tag <code>\(e(fleet.tag))</code> · media <code>\(e(fleet.media))</code> (\(String(format: "%.3f", fleet.duration)) s) · seed \(fleet.seed) · mix \(e(fleet.mix))\(shards)\(fleet.dryRun ? " · dry run" : "")\(fleet.networkMix.map { " · networks \(e($0))" } ?? "")</p>
            <p class="facts">\(String(format: "%.2f", performance.seconds)) s · \(String(format: "%.0f", performance.sessionsPerSecond)) sessions/s · \(String(format: "%.0f", performance.beaconsPerSecond)) beacons/s · peak RSS \(String(format: "%.1f", performance.peakRSSMiB)) MiB</p>
            """
    }

    static func verdicts(_ report: FleetReport) -> String {
        func verdict(_ passed: Bool?) -> String {
            guard let passed else { return "<td>not checked</td>" }
            return passed ? "<td class=\"ok\">yes</td>" : "<td class=\"fail\">NO</td>"
        }
        var rows = ["<tr><td>sent as the scenarios imply</td>\(report.aborted != nil ? "<td>not judged (aborted)</td>" : verdict(report.checks.sentAsExpected))</tr>",
                    "<tr><td>received as sent</td>\(verdict(report.checks.receivedAsSent))</tr>"]
        if let device = report.checks.deviceFields { rows.append("<tr><td>X-Device-* on every hit</td>\(verdict(device))</tr>") }
        for threshold in report.thresholds ?? [] {
            rows.append("<tr class=\"threshold\" data-passed=\"\(threshold.passed)\"><td>threshold <code>\(e(threshold.threshold))</code></td>\(verdict(threshold.passed))<td>\(e(threshold.message))</td></tr>")
        }
        if let aborted = report.aborted {
            rows.append("<tr><td>aborted (--abort-on-fail)</td><td class=\"fail\">at \(String(format: "%.1f", aborted.seconds)) s</td><td>\(e(aborted.message))</td></tr>")
        }
        if let error = report.error { rows.append("<tr><td>the ad plays</td><td class=\"fail\">NO</td><td>VAST \(error.code): \(e(error.message))</td></tr>") }
        return "<h2>Checks and thresholds</h2><section><table id=\"checks\">\(rows.joined())</table></section>"
    }
}
