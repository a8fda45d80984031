import AdSession
import Foundation

extension JUnitReport {
    /// A VMAP fleet's test cases: the document plays, then for each break that its ads can be had (or why not) and its
    /// fleet's own cases, named with the break.
    static func vmapFleetCases(_ report: VMAPFleetReport) -> [Case] {
        if let error = report.error {
            return [Case(name: "the VMAP document plays", outcome: .failed(message: "VMAP \(error.code): \(short(error.message))", details: error.message))]
        }
        var cases: [Case] = []
        for item in report.breaks {
            let name = "break \(item.number) (\(item.timeOffset))"
            switch item.outcome {
            case "failed":
                cases.append(Case(name: "\(name) plays", outcome: .failed(message: item.error.map { "\($0.code): \(short($0.message))" } ?? "its ads cannot play",
                                                                          details: item.error?.message ?? "")))
            case "skipped":
                cases.append(Case(name: "\(name) plays", outcome: .skipped(item.error.map { "\($0.code): \($0.message)" } ?? "not played")))
            case "notReached":
                cases.append(Case(name: "\(name) plays", outcome: .skipped("no viewer watched that far")))
            case "aborted":
                cases.append(Case(name: "\(name) plays", outcome: .skipped("--abort-on-fail ended the run at an earlier break's breach")))
            default:
                cases.append(Case(name: "\(name) plays", outcome: .passed))
            }
            for breakCase in item.report.map(fleetCases) ?? [] {
                var named = breakCase
                named.name = "\(name): \(breakCase.name)"
                cases.append(named)
            }
        }
        return cases
    }
}
