import AdSession
import Findings
import Foundation
import Testing
import TestSupport
import VAST

/// `vplay lint` on the IAB's sample tags (issue 39): every error-severity finding is one docs/reference/iab-samples.md
/// lists and explains, and every one it lists still fires. Creative QA is left out (its findings on the IAB clip
/// are warnings, listed on the same page); the media is opened.
@Suite struct IABSampleLintTests {
    static let iab = Repo.root.deletingLastPathComponent().appendingPathComponent("shared/vast-samples/iab")
    static let raw = "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/"

    /// `tag|rule` of each row of the page's table.
    static func documented() throws -> Set<String> {
        let page = try String(contentsOf: Repo.root.appendingPathComponent("docs/reference/iab-samples.md"), encoding: .utf8)
        return Set(page.components(separatedBy: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`vast"), cells[1].hasPrefix("`") else { return nil }
            return cells[0].trimmingCharacters(in: ["`"]) + "|" + cells[1].trimmingCharacters(in: ["`"])
        })
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: iab.appendingPathComponent("vast4.1").path) && Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func everyErrorFinding_isOneTheDocsExplain() async throws {
        var configuration = SessionConfiguration(tag: "")
        configuration.mappings = [
            URLMapping(prefix: "https://iab-publicfiles.s3.amazonaws.com/vast/", directory: Self.iab.appendingPathComponent("media")),
            URLMapping(prefix: Self.raw + "VAST%203.0%20Samples/", directory: Self.iab.appendingPathComponent("vast3")),
            URLMapping(prefix: Self.raw + "VAST%204.0%20Samples/", directory: Self.iab.appendingPathComponent("vast4.0")),
        ]
        var found = Set<String>()
        var linted = 0
        for folder in ["vast2", "vast3", "vast4.0", "vast4.1"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.iab.appendingPathComponent(folder).path).filter { $0.hasSuffix(".xml") }
            for name in names {
                configuration.tag = Self.iab.appendingPathComponent(folder).appendingPathComponent(name).path
                let lint = await TagLint.lint(configuration, openMedia: true, policy: RulePolicy())
                linted += 1
                for finding in lint.findings where finding.severity == .error { found.insert("\(folder)/\(name)|\(finding.finding.rule)") }
            }
        }
        #expect(linted == 48)
        let documented = try Self.documented()
        #expect(documented.count == 12)
        #expect(found.subtracting(documented).isEmpty, "error findings the page does not explain: \(found.subtracting(documented).sorted())")
        #expect(documented.subtracting(found).isEmpty, "listed, no longer found: \(documented.subtracting(found).sorted())")
    }
}
