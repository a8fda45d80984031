import Primitives
import AdSession
import Foundation

/// JUnit XML in the Ant/Jenkins form CI dashboards read, valid against Jenkins' own `junit-4.xsd` and the stricter
/// `schemas/junit.xsd` (the tests check both): one `testsuite` with `timestamp`, `hostname`, the measured wall `time`,
/// `properties` (when there are any), its test cases, and empty `system-out`/`system-err`.
///
/// Test names are the check, not its expected values (`event midpoint time`, not `midpoint at playhead 5.000 s`), so
/// CI history survives a golden file that changed; the classname is `vplay.<command>.<tag>` with the tag written
/// without dots (Jenkins splits a classname at its last dot into package and class, so `media/demo.xml` would show as
/// class `xml`). A failure's `message` says what was expected and what was seen; its text lists every detail.
enum JUnitReport {
    /// One test case.
    struct Case {
        enum Outcome {
            case passed
            case failed(message: String, details: String)
            /// Not checked in this run (no sink to count arrivals, a dry run sends nothing), with why.
            case skipped(String)
        }
        var name: String
        var outcome: Outcome
        var seconds: Double = 0
    }

    /// The suite: what ran, where, when and for how long.
    struct Suite {
        /// The suite's name (the tag, or what the command checked).
        var name: String
        /// `run`, `fleet`, `audit`, `reward-check`: the classname's middle part and the suite's package.
        var command: String
        /// What the classname ends with (the tag); its dots and slashes become dashes.
        var subject: String
        var cases: [Case]
        var started: Date
        var hostname: String
        /// Wall time, seconds.
        var seconds: Double
        var properties: [(name: String, value: String)] = []
    }

    static func xml(_ suite: Suite) -> String {
        let failures = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }.count
        let skipped = suite.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
        // Jenkins' junit-4.xsd has no `skipped` on <testsuites> (only on <testsuite>), no attribute on <skipped>, and
        // no empty <properties>.
        let counts = #"tests="\#(suite.cases.count)" failures="\#(failures)" errors="0""#, time = #"time="\#(format(suite.seconds))""#
        let classname = escape(classname(command: suite.command, subject: suite.subject))
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="vplay" \#(counts) \#(time)>"#,
            #"  <testsuite name="\#(escape(suite.name))" \#(counts) skipped="\#(skipped)" \#(time) timestamp="\#(timestamp(suite.started))" hostname="\#(escape(suite.hostname))" id="0" package="vplay.\#(escape(suite.command))">"#,
        ]
        if !suite.properties.isEmpty {
            lines.append("    <properties>")
            for property in suite.properties {
                lines.append(#"      <property name="\#(escape(property.name))" value="\#(escape(property.value))"/>"#)
            }
            lines.append("    </properties>")
        }
        for testCase in unique(suite.cases) {
            let open = #"    <testcase name="\#(escape(testCase.name))" classname="\#(classname)" time="\#(format(testCase.seconds))""#
            switch testCase.outcome {
            case .passed:
                lines.append(open + "/>")
            case let .failed(message, details):
                lines.append(open + ">")
                lines.append(#"      <failure message="\#(escape(message))" type="\#(escape(suite.command == "run" ? "expectation" : "check"))">\#(escape(details))</failure>"#)
                lines.append("    </testcase>")
            case let .skipped(why):
                lines.append(open + ">")
                lines.append(#"      <skipped>\#(escape(why))</skipped>"#)
                lines.append("    </testcase>")
            }
        }
        lines += ["    <system-out/>", "    <system-err/>", "  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Expectation results as a suite (audit and reward-check, whose names are already stable; a run's expectations).
    static func xml(suite: String, command: String, subject: String, results: [ExpectationResult], started: Date, hostname: String,
                    seconds: Double) -> String {
        xml(Suite(name: suite, command: command, subject: subject, cases: results.map(testCase), started: started, hostname: hostname,
                  seconds: seconds))
    }

    /// An expectation result as a test case named by its stable name; a failure says what was expected and seen.
    static func testCase(_ result: ExpectationResult) -> Case {
        guard !result.passed else { return Case(name: result.stableName, outcome: .passed) }
        let seen = result.detail ?? "failed"
        return Case(name: result.stableName, outcome: .failed(message: "expected \(result.name), but \(short(seen))", details: "expected: \(result.name)\nseen: \(seen)"))
    }

    /// `vplay.<command>.<subject>` with every run of characters other than letters, digits, `_` and `-` made one `-`,
    /// the same on every machine: a file is named by its file name (`media/demo.xml` and `/ci/work/media/demo.xml` →
    /// `vplay.run.demo-xml`), a URL by its host and path without scheme, port or query (`reward-check`'s endpoint on
    /// an ephemeral loopback port, `http://127.0.0.1:43187/ssv` → `vplay.reward-check.127-0-0-1-ssv`).
    static func classname(command: String, subject: String) -> String {
        var text = subject
        if let url = URLComponents(string: subject), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
           let host = url.host {
            text = host + url.path
        } else {
            let path = subject.hasPrefix("file://") ? (URLComponents(string: subject)?.path ?? subject) : subject
            text = path.split(separator: "/").last.map(String.init) ?? path
        }
        var slug = ""
        for scalar in text.unicodeScalars {
            let keep = (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-") && scalar.isASCII
            if keep { slug.unicodeScalars.append(scalar) } else if !slug.hasSuffix("-") { slug += "-" }
        }
        slug = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(120))
        return "vplay.\(command).\(slug.isEmpty ? "session" : slug)"
    }

    /// Names made unique within the suite (a second `beacon start count` becomes `beacon start count (2)`), since a
    /// test is known by its classname and name.
    static func unique(_ cases: [Case]) -> [Case] {
        var seen: [String: Int] = [:]
        return cases.map { testCase in
            var testCase = testCase
            let count = (seen[testCase.name] ?? 0) + 1
            seen[testCase.name] = count
            if count > 1 { testCase.name += " (\(count))" }
            return testCase
        }
    }

    /// The first 400 characters of `text` (a message attribute stays readable; the failure's text has it all).
    static func short(_ text: String) -> String { text.count > 400 ? String(text.prefix(399)) + "…" : text }

    /// Ant's timestamp: ISO 8601 date and time, no zone (UTC here).
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return String(formatter.string(from: date).prefix(19))
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
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case let c where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", max(0, seconds)) }
}

extension JUnitReport.Case {
    /// The case with its name prefixed (one suite holding two fleets' cases).
    func prefixed(_ prefix: String) -> Self {
        var copy = self
        copy.name = prefix + name
        return copy
    }
}
