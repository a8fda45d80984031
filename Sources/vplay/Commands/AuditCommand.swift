import AdSession
import ArgumentParser
import Foundation
import Primitives

/// `vplay audit --vast TAG --har CAPTURE.har`: judges what a real device fired against what the tag says it must
/// fire (`BeaconAudit`).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Judge a capture of a device's requests (HAR, sink log, beacon log) against the tag's tracking plan.",
        discussion: """
            Each captured request is matched to a tracking URL of the tag (its wrapper chain included): macros match \
            any value, query order and percent-encoding do not matter, a loopback template matches any loopback host. \
            Per tracking URL: expected count (a full play, or what the capture shows: a skip, a close), seen, first \
            time, verdict. Checks: order; quartile timing against the time from start to complete and the media's \
            duration, each quartile's lateness reported, a play whose beacons are bunched failed (when the capture has \
            times and no pause); playhead macros against their event, one before its moment flagged; [ERRORCODE] on \
            errors. Requests that look like tracking but match nothing are listed (the first 100 in text), not failed. \
            A VMAP document (--vmap, or given to --vast) is audited break by break, the capture split by each break's \
            breakStart and breakEnd (docs/guides/vmap.md). A stitcher's client-side tracking document \
            (--tracking-doc) is audited beacon URL by beacon URL, the capture put on the stream's timeline by its \
            first timed beacon (docs/guides/ssai.md). An HLS stream's interstitials (--interstitials) are audited as \
            a VMAP document's breaks are.

            Exit codes: 0 every check holds; 1 a check failed; 2 usage error (or a capture that cannot be read); \
            3 the tag has no ad (or the tracking document cannot be read); 4 its media cannot be opened (the VAST <Duration> is used for timing then).
            """
    )

    @OptionGroup var tag: TagOptions

    @Option(help: ArgumentHelp("The capture as a HAR 1.2 file (Charles, browser dev tools, vplay --har).", valueName: "file"), completion: .file())
    var har: String?

    @Option(help: ArgumentHelp("The capture as a vplay sink log (vplay sink --log).", valueName: "file"), completion: .file())
    var log: String?

    @Option(help: ArgumentHelp("The capture as a vplay beacon log (--beacons).", valueName: "file"), completion: .file())
    var beacons: String?

    @Option(help: .withDefault("Seconds of slack for timing and playhead checks.", seconds: .seconds(1)),
            transform: OptionValue.seconds(positive: true, else: "--tolerance must be a positive number of seconds"))
    var tolerance: Duration = .seconds(1)

    @Option(help: ArgumentHelp("--tracking-doc: client (the player fires every timed beacon) or hybrid (the server fires impression, start, quartiles, complete, breakStart and breakEnd: a player that fires them too is failed).", valueName: "client|hybrid"))
    var reporting: TrackedStreamPlayback.Reporting = .client

    @Flag(help: "Print the audit as one JSON object instead of text.")
    var json = false

    @OptionGroup var quietOption: QuietOption

    @Option(help: ArgumentHelp("Write the audit as JSON to FILE.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--report"))
    var report: String?

    @Option(help: ArgumentHelp("Write JUnit XML: one test case per tracking URL and per check.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--junit"))
    var junit: String?

    @Option(help: ArgumentHelp("Draw the captured beacons on the media's timeline as SVG.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--timeline"))
    var timeline: String?

    func validate() throws {
        if tag.trackingDoc != nil, timeline != nil { throw ValidationError("--timeline: an audit against a tracking document draws no picture yet") }
        let given = [har, log, beacons].compactMap { $0 }
        guard given.count == 1 else { throw ValidationError("give exactly one capture: --har, --log or --beacons") }
        try OptionValue.checkNoClash(outputs: [("--report", report), ("--junit", junit), ("--timeline", timeline)],
                                     inputs: tag.inputs + [("--har", har), ("--log", log), ("--beacons", beacons)], inputFolders: tag.inputFolders)
    }

    func run() async throws {
        quietOption.apply()
        // When the audit started and how long it took, in wall time, for the JUnit report.
        let started = LiveTools.wallTime(), wall = LiveTools.monotonicClock(), startedAt = wall.now
        let requests: [CapturedRequest]
        do {
            if let har { requests = try CapturedRequest.read(har, format: .har) }
            else if let log { requests = try CapturedRequest.read(log, format: .sinkLog) }
            else { requests = try CapturedRequest.read(beacons!, format: .beacons) }
        } catch {
            throw ValidationError(error.description)
        }
        var configuration = SessionConfiguration(tag: tag.vast)
        tag.apply(to: &configuration)
        if tag.trackingDoc != nil {
            try await finishTracking(configuration, requests: requests, started: started, seconds: { startedAt.duration(to: wall.now).seconds })
            return
        }
        if let vmap = await VMAPInspector(configuration: configuration, mode: tag.sessionMode).inspect(openMedia: true) {
            try finish(vmap, requests: requests, started: started, seconds: startedAt.duration(to: wall.now).seconds)
            return
        }
        let inspection = await AdInspector(configuration: configuration).inspect(openMedia: true)
        guard inspection.ad != nil else {
            StandardStreams.fail("audit: the tag has no ad: \(inspection.errors.map { "VAST \($0.code): \($0.message)" }.joined(separator: "; "))")
            throw ExitCode(ExitCode.adError.rawValue)
        }
        let audit = BeaconAudit(inspection: inspection, requests: requests, tolerance: tolerance.seconds)
        let document = Self.json(audit, tag: tag.vast, requests: requests.count)
        if json { StandardStreams.print(document.text) } else { StandardStreams.say(Self.text(audit, requests: requests.count)) }
        var failures: [String] = []
        func write(_ option: String, _ path: String?, _ content: () -> String) {
            guard let path else { return }
            do { try OutputFile.write(content(), to: path, option: option) } catch { failures.append("\(error)") }
        }
        write("--report", report) { document.text + "\n" }
        write("--junit", junit) { JUnitReport.xml(suite: "audit \(tag.vast)", command: "audit", subject: tag.vast, results: Self.results(audit), started: started, hostname: ProcessInfo.processInfo.hostName, seconds: startedAt.duration(to: wall.now).seconds) }
        write("--timeline", timeline) { Self.svg(audit, title: "vplay audit: \(tag.vast)") }
        let code: Int32 = audit.passed ? (inspection.media == nil && inspection.errors.contains { $0.kind == .media } ? ExitCode.mediaError.rawValue : 0) : 1
        let failed = audit.trackers.filter { $0.verdict != .ok }.count + audit.findings.filter { !$0.passed && !$0.warning }.count
        try CommandOutputs.exit(audit.passed ? code : 1, failures: failures, signalled: false,
                                reason: audit.passed ? inspection.errors.first.map { "VAST \($0.code): \($0.message)" } : "\(failed) audit checks failed")
    }

    static func results(_ audit: BeaconAudit) -> [ExpectationResult] {
        audit.trackers.map { tracker in
            ExpectationResult(name: "\(tracker.event) [\(tracker.source)] \(tracker.template)", passed: tracker.verdict == .ok,
                              detail: tracker.verdict == .ok ? nil : "\(tracker.verdict.rawValue): seen \(tracker.seen), expected \(range(tracker))")
        } + audit.findings.filter { !$0.warning }.map { ExpectationResult(name: $0.check, passed: $0.passed, detail: $0.passed ? nil : $0.detail) }
    }

    static func range(_ tracker: BeaconAudit.Tracker) -> String {
        guard let maximum = tracker.maximum else { return "\(tracker.minimum) or more" }
        return tracker.minimum == maximum ? "\(maximum)" : "\(tracker.minimum) to \(maximum)"
    }

    /// Unmatched requests the text lists.
    static let maxUnmatchedLines = 100

    static func text(_ audit: BeaconAudit, requests: Int) -> String {
        var lines = ["audit: \(requests) requests, \(audit.matched.count) matched to the tag's tracking URLs"]
        var table = [["verdict", "event", "source", "expected", "seen", "url"]]
        for tracker in audit.trackers where tracker.seen > 0 || tracker.minimum > 0 || tracker.verdict != .ok {
            let event = tracker.offset.map { "\(tracker.event)@\($0.millisecondText)" } ?? tracker.event
            table.append([tracker.verdict == .ok ? "ok" : tracker.verdict.rawValue.uppercased(), event, tracker.source, range(tracker), "\(tracker.seen)", tracker.template])
        }
        let widths = (0..<5).map { column in table.map { $0[column].count }.max() ?? 0 }
        lines += table.map { row in (0..<5).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[5] }
        lines += tail(findings: audit.findings, unmatched: audit.unmatched, passed: audit.passed)
        return lines.joined(separator: "\n")
    }

    /// The end of an audit's text: each check's line, the unmatched requests, the verdict.
    static func tail(findings: [BeaconAudit.Finding], unmatched: [CapturedRequest], passed: Bool) -> [String] {
        var lines: [String] = []
        if !findings.isEmpty { lines.append("") }
        for finding in findings {
            // A finding that fails or warns names its rule (docs/reference/rules.md), as every command's findings do.
            let rule = finding.passed ? "" : " [\(finding.rule)]"
            lines.append("\(finding.warning ? "warn" : finding.passed ? "ok  " : "FAIL") \(finding.check)\(rule): \(finding.detail)")
        }
        if !unmatched.isEmpty {
            lines.append("")
            // The first `maxUnmatchedLines` on a terminal (a million-entry capture printed 195 MB); all in `--report`.
            lines += unmatched.prefix(Self.maxUnmatchedLines).map { "unmatched (request \($0.index)): \($0.url.prefix(500))\($0.url.count > 500 ? "…" : "")" }
            if unmatched.count > Self.maxUnmatchedLines {
                lines.append("… and \(unmatched.count - Self.maxUnmatchedLines) more unmatched requests (all of them in --report)")
            }
        }
        lines.append("")
        lines.append("audit: " + (passed ? "every check holds" : "checks failed") + " (exit \(passed ? 0 : 1))")
        return lines
    }

    static func json(_ audit: BeaconAudit, tag: String, requests: Int) -> JSON {
        .object([
            ("kind", .string("audit")), ("tag", .string(tag)), ("passed", .bool(audit.passed)), ("requests", .int(requests)),
            ("matched", .int(audit.matched.count)), ("duration", audit.duration.map(JSON.seconds) ?? .null), ("tolerance", .number(audit.tolerance)),
            ("trackers", .array(audit.trackers.map { tracker in
                .object([
                    ("event", .string(tracker.event)), ("source", .string(tracker.source)), ("template", .string(tracker.template)),
                    ("offset", tracker.offset.map(JSON.seconds) ?? .null), ("minimum", .int(tracker.minimum)), ("maximum", .optional(tracker.maximum)),
                    ("seen", .int(tracker.seen)), ("firstSentAt", tracker.first.map { .string(ISO8601Time.text(milliseconds: $0)) } ?? .null), ("verdict", .string(tracker.verdict.rawValue)),
                    ("rule", .optional(tracker.rule)),
                ])
            })),
            ("findings", .array(audit.findings.map { .object([("check", .string($0.check)), ("rule", .string($0.rule)), ("passed", .bool($0.passed)), ("warning", .bool($0.warning)), ("detail", .string($0.detail))]) })),
            ("unmatched", .array(audit.unmatched.map { .object([("index", .int($0.index)), ("url", .string($0.url))]) })),
        ])
    }

    /// How a beacon on the audit's picture is judged: its tracking URL's count, then its event's timing.
    enum Mark: String, CaseIterable {
        case ok, offTime = "off time", countWrong = "missing or duplicated"
        var color: String {
            switch self {
            case .ok: "#1a7f37"
            case .offTime: "#bf8700"
            case .countWrong: "#d1242f"
            }
        }
    }

    /// A step for an axis of `span` seconds: 1, 2 or 5 times a power of ten, about eight ticks.
    static func tickStep(_ span: Double) -> Double {
        let raw = max(span, 0.001) / 8
        let power = pow(10, floor(log10(raw)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
    }

    /// The matched beacons on a time axis in seconds from the first one, one lane per tracking event, with the
    /// quartiles' expected times (dashed) from start. Each beacon is coloured by its verdict: green when its tracking
    /// URL's count holds and its event's timing check passed, amber when the count holds but the timing failed, red
    /// when its URL was missed or duplicated; a URL never seen is named in red at the end of its lane. The title
    /// carries the audit's verdict, and a legend says what the colours mean.
    /// The picture's lanes: one per event, in the order first seen (NSOrderedSet on Linux kept "progress" twice),
    /// then the events whose URLs were never seen.
    static func lanes(_ audit: BeaconAudit) -> [String] {
        var seen: Set<String> = []
        return (audit.matched.map { audit.trackers[$0.tracker].event } + audit.trackers.filter { $0.verdict == .missing }.map(\.event))
            .filter { seen.insert($0).inserted }
    }

    /// The height `svg(_:title:)` draws `audit` at.
    static func svgHeight(_ audit: BeaconAudit) -> Int { Int(50 + Double(lanes(audit).count) * 18 + 70) }

    static func svg(_ audit: BeaconAudit, title: String) -> String {
        let timed = audit.matched.compactMap { item in item.request.sentAt.map { (at: $0, tracker: item.tracker) } }
        let origin = timed.map(\.at).min() ?? 0
        let events = lanes(audit)
        let span = max(Double((timed.map(\.at).max() ?? origin) - origin) / 1000, audit.duration?.seconds ?? 1, 1)
        let left = 150.0, width = 900.0, lane = 18.0
        let bottom = 50 + Double(events.count) * lane
        func x(_ seconds: Double) -> Double { left + seconds / span * width }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let timingFailed = Set(audit.findings.filter { !$0.passed && !$0.warning && $0.check.hasPrefix("timing.") }.map { String($0.check.dropFirst("timing.".count)) })
        func mark(_ tracker: BeaconAudit.Tracker) -> Mark {
            tracker.verdict != .ok ? .countWrong : timingFailed.contains(tracker.event) ? .offTime : .ok
        }
        let verdict = audit.passed ? ("every check holds", Mark.ok.color) : ("checks failed", Mark.countWrong.color)
        var svg = [##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(left + width + 40))" height="\##(svgHeight(audit))" font-family="sans-serif" font-size="11">"##,
                   ##"<rect width="100%" height="100%" fill="white"/>"##,
                   ##"<text x="10" y="20" font-size="14" font-weight="bold">\##(JUnitReport.escape(title)) <tspan fill="\##(verdict.1)">\##(verdict.0)</tspan></text>"##]
        if let start = audit.trackers.firstIndex(where: { $0.event == "start" }).flatMap({ audit.trackers[$0].first }), let duration = audit.duration {
            for share in [0.25, 0.5, 0.75, 1.0] {
                let at = x(Double(start - origin) / 1000 + duration.seconds * share)
                svg.append(##"<line x1="\##(f(at))" y1="40" x2="\##(f(at))" y2="\##(Int(bottom))" stroke="#999" stroke-dasharray="4 3"/>"##)
            }
        }
        for (row, event) in events.enumerated() {
            let y = 55 + Double(row) * lane
            svg.append(##"<text x="10" y="\##(f(y + 4))">\##(JUnitReport.escape(event))</text>"##)
            for item in timed where audit.trackers[item.tracker].event == event {
                let tracker = audit.trackers[item.tracker]
                let seconds = Double(item.at - origin) / 1000
                let judged = mark(tracker)
                svg.append(##"<circle class="beacon \##(judged == .ok ? "ok" : judged == .offTime ? "off-time" : "count-wrong")" cx="\##(f(x(seconds)))" cy="\##(f(y))" r="4" fill="\##(judged.color)"><title>\##(JUnitReport.escape(event)) at \##(String(format: "%.3f", seconds)) s: \##(judged.rawValue)</title></circle>"##)
            }
            let missing = audit.trackers.filter { $0.event == event && $0.verdict == .missing }
            if !missing.isEmpty {
                svg.append(##"<text class="missing" x="\##(f(left + width + 4))" y="\##(f(y + 4))" text-anchor="end" fill="\##(Mark.countWrong.color)">\##(missing.count) URL\##(missing.count == 1 ? "" : "s") missing</text>"##)
            }
        }
        // The time axis: seconds from the first beacon.
        svg.append(##"<line class="axis" x1="\##(f(left))" y1="\##(f(bottom + 8))" x2="\##(f(left + width))" y2="\##(f(bottom + 8))" stroke="#333"/>"##)
        let step = tickStep(span)
        var tick = 0.0
        while tick <= span + step / 1000 {
            let at = x(tick)
            let label = step < 1 ? String(format: "%.\(step < 0.1 ? 2 : 1)f", tick) : String(Int(tick.rounded()))
            svg.append(##"<line x1="\##(f(at))" y1="\##(f(bottom + 8))" x2="\##(f(at))" y2="\##(f(bottom + 13))" stroke="#333"/>"##)
            svg.append(##"<text class="tick" x="\##(f(at))" y="\##(f(bottom + 25))" text-anchor="middle">\##(label) s</text>"##)
            tick += step
        }
        // In two lines left of the axis: in one, it ran under the "0 s" tick.
        svg.append(##"<text x="10" y="\##(f(bottom + 22))">seconds from</text><text x="10" y="\##(f(bottom + 35))">the first beacon</text>"##)
        // The legend.
        var legendX = left
        for judged in Mark.allCases {
            svg.append(##"<circle cx="\##(f(legendX))" cy="\##(f(bottom + 45))" r="4" fill="\##(judged.color)"/><text x="\##(f(legendX + 8))" y="\##(f(bottom + 49))">\##(judged.rawValue)</text>"##)
            legendX += 170
        }
        svg.append(##"<text x="\##(f(legendX))" y="\##(f(bottom + 49))" fill="#666">dashed: the quartiles' moments from start</text>"##)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
