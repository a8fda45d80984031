import Findings
import Primitives
import VAST

/// What a VMAP session says about its document and schedule before the first break, and about each break after it,
/// as findings of the VMAP rules.
enum VMAPNotes {
    /// An interstitial stream's notes are its own (its document is vplay's writing) and the schedule's.
    static func findings(_ document: VMAPDocument, schedule: VMAPSchedule, playback: VMAPPlayback, contentDuration: Duration,
                         interstitials: InterstitialBreaks?) -> [Finding] {
        if let interstitials { return interstitials.notes + schedule.notes.map { Finding(.vmapSchedule, $0) } }
        return findings(document, schedule: schedule, playback: playback, contentDuration: contentDuration)
    }

    static func findings(_ document: VMAPDocument, schedule: VMAPSchedule, playback: VMAPPlayback, contentDuration: Duration) -> [Finding] {
        var findings: [Finding] = []
        let namespace: String = switch document.namespace {
        case .none: "no namespace"
        case .other: "a namespace that is none of the three VMAP documents use"
        default: "the namespace \(document.namespace.rawValue)"
        }
        findings.append(Finding(.vmapNamespace, "VMAP \(document.version) in \(namespace); vplay reads its elements by local name"))
        for problem in document.problems {
            let place = problem.breakIndex.map { "AdBreak \($0 + 1): " } ?? ""
            findings.append(Finding(.vmapDocumentProblem, "\(place)\(problem.error)"))
        }
        if playback.contentDuration == nil {
            findings.append(Finding(.vmapContentDuration, "the content lasts \(contentDuration.clockText), assumed (the latest clock offset plus 30 s, or 5 minutes without one); --content-duration sets it"))
        }
        findings += schedule.notes.map { Finding(.vmapSchedule, $0) }
        let percent = document.breaks.enumerated().filter { if case .percent = $0.element.timeOffset { true } else { false } }
        if !percent.isEmpty {
            findings.append(Finding(.vmapPlayerIMA, "Google IMA ignores percentage offsets (videojs-ima#928): break\(percent.count == 1 ? "" : "s") \(percent.map { "\($0.offset + 1) (\($0.element.timeOffsetText))" }.joined(separator: ", ")) would not play there"))
        }
        var shaka: [String] = []
        if document.breaks.contains(where: { if case .percent = $0.timeOffset { true } else if case .position = $0.timeOffset { true } else { false } }) {
            shaka.append("it places breaks only at start, end and clock times")
        }
        if document.breaks.contains(where: { if case .inlineVAST? = $0.source?.content { true } else { false } }) {
            shaka.append("it plays AdTagURI sources only, not inline VAST")
        }
        if document.breaks.contains(where: { !$0.tracking.isEmpty }) {
            shaka.append("it fires no breakStart, breakEnd or error tracking")
        }
        if !shaka.isEmpty { findings.append(Finding(.vmapPlayerShaka, "Shaka Player would differ: " + shaka.joined(separator: "; "))) }
        return findings
    }

    /// The finding a break's outcome calls for, if any.
    static func finding(for report: VMAPBreakReport) -> Finding? {
        let name = "break \(report.number) (AdBreak \(report.documentIndex), \(report.offsetText))"
        let why = report.errors.first.map { " — \($0.code): \($0.message)" } ?? ""
        switch report.outcome {
        case .skipped: return Finding(.vmapBreakNotPlayed, "\(name) is not played\(why)")
        case .failed: return Finding(.vmapBreakFailed, "\(name) played no ad\(why)")
        case .withheld: return Finding(.vmapPostrollWithheld, "\(name): its ads were requested at content \(report.requestedAt?.clockText ?? "-") and never played: contentComplete was never signalled")
        case .played, .passed, .notReached: return nil
        }
    }
}
