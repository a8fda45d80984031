import AdSession
import Foundation

extension FleetHTML {
    /// `fleet --vmap --html FILE` (and `vplay merge --html` of VMAP shards): the schedule with each break's reach and
    /// outcome, then each break's fleet as a tag fleet's page shows it (checks, reach by quartile, beacons by status,
    /// latency, every tracking URL), its element ids prefixed `break-N-`.
    static func page(_ report: VMAPFleetReport) -> String {
        let title = "vplay VMAP fleet: \(report.sessions) viewers of \(report.tag)"
        var body = [vmapHeader(report), schedule(report)]
        for item in report.breaks {
            guard let breakReport = item.report else { continue }
            let sections = [verdicts(breakReport), reach(breakReport), beacons(breakReport), latency(breakReport), urls(breakReport)]
                .joined(separator: "\n")
                .replacingOccurrences(of: " id=\"", with: " id=\"break-\(item.number)-")
                .replacingOccurrences(of: "<h2>", with: "<h3>").replacingOccurrences(of: "</h2>", with: "</h3>")
            body.append("""
                <article class="break" id="break-\(item.number)" data-reach="\(item.reach)">
                <h2>Break \(item.number) (\(e(item.timeOffset))) · reach \(number(item.reach)) · \(e(item.outcome))</h2>
                \(sections)
                </article>
                """)
        }
        return document(title: title, body: body, source: "the VMAP fleet report")
    }

    static func vmapHeader(_ report: VMAPFleetReport) -> String {
        let shards = report.shardCount > 1 ? " · shards \(report.shards.map(String.init).joined(separator: ", ")) of \(report.shardCount)" : ""
        let content = String(format: "%.3f", report.contentDuration) + (report.contentDurationGiven ? " s" : " s (assumed)")
        let verdict = report.checksPass ? "<span class=\"ok\">every break's counts agree</span>" : "<span class=\"fail\">a break's counts differ</span>"
        let notes = report.notes.map { "<li>\(e($0))</li>" }.joined()
        return """
            <h1 id="title">VMAP fleet of <span id="viewers">\(number(report.sessions))</span> viewers</h1>
            <p class="facts">document <code>\(e(report.tag))</code> · content \(content) · seed \(report.seed) · mix \(e(report.mix)) · watch mix \(e(report.watchMix))\(shards)</p>
            <p class="facts">\(String(format: "%.2f", report.seconds)) s · \(verdict)</p>
            \(notes.isEmpty ? "" : "<ul class=\"facts\" id=\"notes\">\(notes)</ul>")
            """
    }

    /// Every break in play order: where it falls, who reaches it, what became of it.
    static func schedule(_ report: VMAPFleetReport) -> String {
        let rows = report.breaks.map { item in
            let share = report.sessions > 0 ? Double(item.reach) / Double(report.sessions) * 100 : 0
            let why = item.error.map { " — \($0.code) \(e($0.message))" } ?? ""
            let outcome = item.outcome == "played" && item.report?.checks.sentAsExpected != false ? "<td class=\"ok\">played</td>"
                : item.outcome == "notReached" ? "<td>not reached</td>" : "<td class=\"fail\">\(e(item.outcome))\(why)</td>"
            return "<tr data-break=\"\(item.number)\" data-reach=\"\(item.reach)\"><td class=\"n\">\(item.number)</td><td>\(e(item.timeOffset))</td>"
                + "<td class=\"n\">\(String(format: "%.3f", item.contentTime)) s</td><td class=\"n\">\(item.position)</td>"
                + "<td class=\"n\">\(number(item.reach)) · \(String(format: "%.1f", share)) %</td>\(outcome)</tr>"
        }.joined()
        return "<h2>Schedule and reach</h2><section><table id=\"schedule\"><tr><th class=\"n\">break</th><th>offset</th><th class=\"n\">content</th>"
            + "<th class=\"n\">position</th><th class=\"n\">reach</th><th>outcome</th></tr>\(rows)</table></section>"
    }
}
