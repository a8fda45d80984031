import Primitives
import AdSession
import Foundation

/// `--junit FILE.xml`: one test case per expectation (or, without `--expect`, one per session check: played,
/// beacons delivered), in the JUnit XML that CI dashboards read.
enum JUnitReport {
    static func xml(suite: String, results: [ExpectationResult], seconds: Double) -> String {
        let failures = results.filter { !$0.passed }.count
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="vplay" tests="\#(results.count)" failures="\#(failures)" time="\#(format(seconds))">"#,
            #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="0" time="\#(format(seconds))">"#,
        ]
        for result in results {
            let open = #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.name))" time="0""#
            if result.passed {
                lines.append(open + "/>")
            } else {
                lines.append(open + ">")
                lines.append(#"      <failure message="\#(escape(result.detail ?? "failed"))" type="expectation">\#(escape(result.name)): \#(escape(result.detail ?? "failed"))</failure>"#)
                lines.append("    </testcase>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The checks every session gets when no expectations are given.
    static func defaultResults(_ summary: SessionSummary) -> [ExpectationResult] {
        var results = [ExpectationResult(name: "ad plays without error", passed: summary.error == nil,
                                         detail: summary.error.map { "error \($0.code): \($0.message)" }),
                       ExpectationResult(name: "session ran to its end", passed: summary.outcome != .interrupted,
                                         detail: summary.outcome == .interrupted ? "interrupted by a signal at clock \(String(format: "%.3f", summary.clock.seconds)) s" : nil)]
        if !summary.dryRun {
            results.append(ExpectationResult(name: "every beacon delivered", passed: summary.beaconsFailed == 0,
                                             detail: summary.beaconsFailed == 0 ? nil : "\(summary.beaconsFailed) of \(summary.beaconsPlanned) failed"))
        }
        if let reconciliation = summary.reconciliation {
            results.append(ExpectationResult(name: "every beacon received by the sink", passed: reconciliation.isComplete,
                                             detail: reconciliation.isComplete ? nil : "\(reconciliation.missing.count) missing, \(reconciliation.unexpected.count) unexpected"))
        }
        return results
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case let c where c.value < 0x20 && c != "\n" && c != "\t": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
