import AdSession
import Foundation

extension JUnitReport {
    /// A fleet's test cases, from the report's own verdicts: per tracking URL, sent as the oracle expects and (with a
    /// sink) received as sent; beacons delivered; no unexpected hits at the sink. The same cases with and without
    /// `--sink` or `--dry-run` (what a run cannot check is skipped, with why).
    static func fleetCases(_ report: FleetReport) -> [Case] {
        let population = report.population
        var cases: [Case] = []
        if let error = report.error {
            // A fleet whose ad cannot play: that is the failure; the beacons below are the Error URLs it fired.
            cases.append(Case(name: "the ad plays", outcome: .failed(
                message: "VAST \(error.code): \(short(error.message))", details: "kind: \(error.kind)\ncode: \(error.code)\n\(error.message)")))
        }
        for beacon in population.beacons {
            let what = "\(beacon.event)\(beacon.ad.map { " in ad \($0)" } ?? "") beacon (\(beacon.source)) \(beacon.template)"
            // An aborted run played part of the fleet the oracle predicts (its own case says so).
            let sentOutcome: Case.Outcome = report.aborted != nil
                ? .skipped("--abort-on-fail stopped the run: the oracle's counts are the whole fleet's")
                : beacon.sent == beacon.expected ? .passed : .failed(
                    message: "expected \(beacon.expected) sent (the scenarios imply it), but \(beacon.sent) were sent (\(signed(beacon.sent - beacon.expected)))",
                    details: "\(what)\nexpected: \(beacon.expected)\nsent: \(beacon.sent)\ndelivered: \(beacon.delivered)")
            cases.append(Case(name: "\(what) sent as expected", outcome: sentOutcome))
            guard let received = beacon.received else {
                cases.append(Case(name: "\(what) received as sent", outcome: .skipped(report.fleet.dryRun ? "--dry-run: nothing was sent" : "no --sink: arrivals are not counted")))
                continue
            }
            cases.append(Case(name: "\(what) received as sent", outcome: received == beacon.sent ? .passed : .failed(
                message: "expected \(beacon.sent) received (as many as sent), but \(received) were received (\(signed(received - beacon.sent)))",
                details: "\(what)\nsent: \(beacon.sent)\nreceived: \(received)")))
        }
        for threshold in report.thresholds ?? [] {
            cases.append(Case(name: "threshold \(threshold.threshold)", outcome: threshold.passed ? .passed : .failed(message: threshold.message, details: threshold.message)))
        }
        if let aborted = report.aborted {
            let message = String(format: "aborted at %.1f s: ", aborted.seconds) + aborted.message
            cases.append(Case(name: "the run goes to its end (--abort-on-fail)", outcome: .failed(message: message, details: message)))
        }
        if report.fleet.dryRun {
            cases.append(Case(name: "beacons delivered", outcome: .skipped("--dry-run: nothing was sent")))
        } else if population.failures.isEmpty {
            cases.append(Case(name: "beacons delivered", outcome: .passed))
        } else {
            let reasons = population.failures.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            let total = population.failures.values.reduce(0, +)
            cases.append(Case(name: "beacons delivered", outcome: .failed(
                message: "expected every beacon delivered, but \(total) were not (\(short(reasons.joined(separator: ", "))))",
                details: reasons.joined(separator: "\n"))))
        }
        if let unexpected = population.unexpected {
            cases.append(Case(name: "no unexpected hits at the sink", outcome: unexpected == 0 ? .passed : .failed(
                message: "expected no hit the beacons do not account for, but \(unexpected) came", details: "unexpected hits: \(unexpected)")))
        } else {
            cases.append(Case(name: "no unexpected hits at the sink",
                              outcome: .skipped(report.fleet.dryRun ? "--dry-run: nothing was sent" : "no --sink: arrivals are not counted")))
        }
        return cases
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
}
