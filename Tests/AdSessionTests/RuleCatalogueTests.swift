import AdSession
import Findings
import Foundation
import Testing
import TestSupport
import VAST

/// Issue 39: every finding vplay makes is a rule of the catalogue, with a stable ID, a severity, a spec reference and
/// a summary.
@Suite struct RuleCatalogueTests {
    /// Every `static let … = Rule("ID", …)` written in Sources is listed (a rule declared and forgotten would be one no
    /// `--rule` could name and `vplay rules` would not show), and the catalogue holds nothing else but the error codes'.
    @Test func everyDeclaredRule_isInTheCatalogue_once() throws {
        var declared: [String] = []
        let sources = Repo.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let pattern = try Regex(#"static let \w+ = Rule\("([A-Za-z0-9.\-]+)""#)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            declared += text.matches(of: pattern).map { String($0.output[1].substring!) }
        }
        let listed = RuleCatalogue.standard.rules.map(\.id).filter { !$0.hasPrefix("VPLAY-error-") }
        #expect(declared.count > 60, "read the declarations (\(declared.count))")
        #expect(declared.sorted() == listed.sorted())
        #expect(Set(RuleCatalogue.standard.rules.map(\.id)).count == RuleCatalogue.standard.rules.count, "IDs are unique")
        #expect(RuleCatalogue.standard.rules.filter { $0.id.hasPrefix("VPLAY-error-") }.count == VASTErrorCode.allCases.count)
        #expect(RuleCatalogue.standard.rules.allSatisfy { !$0.summary.isEmpty && !$0.specReference.isEmpty })
        let badForm = RuleCatalogue.standard.rules.filter { $0.id.wholeMatch(of: /(VAST-[234]\.[0-3]|VPLAY)-[a-z0-9-]+/) == nil }
        #expect(badForm.isEmpty, "IDs are VAST-<version>-name or VPLAY-name: \(badForm.map(\.id))")
    }

    /// The parser's warnings on every tag the repository holds (and the IAB samples, when ../shared is there) name
    /// rules of the catalogue; so do warnings whose message is built at run time.
    @Test func everyWarningOnEveryTag_namesACatalogueRule() throws {
        var tags = try FileManager.default.contentsOfDirectory(atPath: Repo.root.appendingPathComponent("media").path)
            .filter { $0.hasSuffix(".xml") }.map { Repo.media($0) }
        let samples = Repo.root.appendingPathComponent("../shared/vast-samples").standardized
        if let found = FileManager.default.enumerator(atPath: samples.path) {
            tags += found.compactMap { $0 as? String }.filter { $0.hasSuffix(".xml") }.map { samples.appendingPathComponent($0).path }
        }
        // A tag with a fault of each kind the parser names, so the check never rests on ../shared alone.
        let faulty = #"""
            <VAST><Ad sequence="x"><InLine><Impression></Impression><Expires>soon</Expires>
              <Category>IAB1</Category><Pricing>1</Pricing>
              <Creatives><Creative><Linear skipoffset="later"><Duration>ten</Duration>
                <TrackingEvents><Tracking>https://x.example/t</Tracking><Tracking event="first-quartile">https://x.example/q</Tracking>
                  <Tracking event="progress">https://x.example/p?m=[NOTAMACRO]</Tracking></TrackingEvents>
                <MediaFiles><MediaFile width="-1">https://x.example/a.mp4</MediaFile><Mezzanine>https://x.example/m.mp4</Mezzanine></MediaFiles>
                <Icons><Icon duration="long"></Icon></Icons>
              </Linear></Creative></Creatives></InLine></Ad></VAST>
            """#
        var rules = Set<String>()
        for (name, data) in [("faulty", Data(faulty.utf8))] + tags.compactMap({ tag in FileManager.default.contents(atPath: tag).map { (tag, $0) } }) {
            var warnings: [VASTWarning] = []
            _ = try? VASTParser().parse(data, warnings: &warnings)
            for warning in warnings {
                #expect(RuleCatalogue.standard.rule(warning.rule) != nil, "\(name): \(warning)")
                rules.insert(warning.rule)
            }
        }
        #expect(rules.count >= 15, "the faulty tag draws the rules of many checks: \(rules.sorted())")
    }
}

extension RuleCatalogueTests {
    /// Every rule is on its family's page, docs/reference/rules/FAMILY.md, and every family is in the index,
    /// docs/reference/rules.md (both written from `vplay rules --json`; rerun scripts/make-docs.sh when a rule is added).
    @Test func theRulesReference_listsEveryRule() throws {
        let index = try String(contentsOf: Repo.root.appendingPathComponent("docs/reference/rules.md"), encoding: .utf8)
        var missing: [String] = []
        for family in Set(RuleCatalogue.standard.rules.map(\.family)) {
            if !index.contains("[\(family)](rules/\(family).md)") { missing.append(family) }
            let page = (try? String(contentsOf: Repo.root.appendingPathComponent("docs/reference/rules/\(family).md"), encoding: .utf8)) ?? ""
            missing += RuleCatalogue.standard.rules.filter { $0.family == family && !page.contains("| `\($0.id)` | \($0.severity.rawValue) |") }.map(\.id)
        }
        #expect(missing.isEmpty, "not on its family page (or with another severity), or a family not in the index: \(missing)")
    }
}
