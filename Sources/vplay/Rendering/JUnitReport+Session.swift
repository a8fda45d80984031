import AdSession
import Foundation
import TrackingBeacons

extension JUnitReport {
    /// A run's test cases: one per expectation with `--expect`; otherwise the four session checks, always the same
    /// four (a check a run cannot make, such as arrivals without `--sink`, is skipped with why, not left out), so a
    /// run with and without `--sink` reports the same tests; a VMAP session adds one for its document and one a break.
    static func sessionCases(summary: SessionSummary, transcript: SessionTranscript, results: [ExpectationResult]?) -> [Case] {
        if let results { return results.map(testCase) }
        var cases = [
            Case(name: "ad plays without error", outcome: summary.error.map {
                .failed(message: "expected no ad or media error, but error \($0.code.rawValue): \(short($0.message))",
                        details: "error \($0.code.rawValue): \($0.message)")
            } ?? .passed),
        ]
        // A VMAP session: the document plays, and each break with it (a run with a break that played no ad exits 3).
        if let vmap = summary.vmap {
            cases.append(Case(name: "VMAP document plays", outcome: vmap.documentError.map {
                .failed(message: "VMAP \($0.code.rawValue): \(short($0.message))", details: $0.message)
            } ?? .passed))
            for report in vmap.breaks {
                let name = "break \(report.number) (\(report.offsetText)) plays"
                let why = report.errors.first.map { "\($0.code): \($0.message)" } ?? report.outcome.rawValue
                let outcome: Case.Outcome = switch report.outcome {
                case .played: .passed
                case .failed: .failed(message: "expected an ad of the break to play, but none did: \(short(why))", details: why)
                case .skipped, .withheld, .passed, .notReached: .skipped("\(report.outcome.rawValue): \(why)")
                }
                cases.append(Case(name: name, outcome: outcome))
            }
        }
        cases += [
            Case(name: "session ran to its end", outcome: summary.outcome == .interrupted
                ? .failed(message: "expected the session to end by itself, but it was interrupted by a signal at clock \(String(format: "%.3f", summary.clock.seconds)) s",
                          details: "interrupted by a signal at clock \(String(format: "%.3f", summary.clock.seconds)) s")
                : .passed),
        ]
        let failed = transcript.firedBeacons.filter { !$0.delivered }
        if summary.dryRun {
            cases.append(Case(name: "every beacon delivered", outcome: .skipped("--dry-run: no beacon was sent")))
        } else if summary.beaconsFailed == 0 && failed.isEmpty {
            cases.append(Case(name: "every beacon delivered", outcome: .passed))
        } else {
            let lines = failed.map { "\($0.event) beacon (\($0.source)) \($0.url): \($0.error ?? "not delivered")" }
            let count = max(summary.beaconsFailed, failed.count)
            cases.append(Case(name: "every beacon delivered", outcome: .failed(
                message: "expected all \(summary.beaconsPlanned) beacons delivered, but \(count) failed: \(short(lines.prefix(3).joined(separator: "; ")))",
                details: lines.joined(separator: "\n"))))
        }
        if let reconciliation = summary.reconciliation {
            if reconciliation.isComplete {
                cases.append(Case(name: "every beacon received by the sink", outcome: .passed))
            } else {
                let lines = reconciliation.missing.map { "missing: \($0.event) beacon (\($0.source)) \($0.url)\($0.error.map { ": \($0)" } ?? "")" }
                    + reconciliation.unexpected.map { "unexpected: \($0)" }
                cases.append(Case(name: "every beacon received by the sink", outcome: .failed(
                    message: "expected every beacon sent to arrive at the sink, but \(reconciliation.missing.count) missing, \(reconciliation.unexpected.count) unexpected: \(short(lines.prefix(3).joined(separator: "; ")))",
                    details: lines.joined(separator: "\n"))))
            }
        } else {
            cases.append(Case(name: "every beacon received by the sink",
                              outcome: .skipped(summary.dryRun ? "--dry-run: no beacon was sent" : "no --sink: arrivals are not counted")))
        }
        return cases
    }
}
