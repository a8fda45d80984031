import Foundation
import Testing
import TestSupport

/// `vplay lint` as a CI job runs it: what only a process shows — exit 0/1/2, the config file found in the working
/// directory, output files — and its SARIF, JUnit and NDJSON checked against the official schemas.
@Suite struct LintCommandTests {
    /// The demo tag without its `<AdTitle>` (VAST-2.0-inline-adtitle, an error by default), its media as an absolute
    /// path.
    static func untitled(_ folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "clip-10s-360p.mp4", with: Repo.media("clip-10s-360p.mp4"))
        let stripped = text.replacingOccurrences(of: #"<AdTitle>[^<]*</AdTitle>"#, with: "", options: .regularExpression)
        #expect(stripped != text, "the demo has an AdTitle to take out")
        return try folder.write("untitled.xml", stripped)
    }

    /// The line and column of the file's `<InLine` start tag, counted here.
    static func inLinePlace(_ path: String) throws -> (line: Int, column: Int) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains("<InLine") })
        return (index + 1, lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: "<InLine")!.lowerBound) + 1)
    }

    @Test func exitCodes_zeroClean_oneOnAnError_twoOnUsage() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        let clean = try await vplay(["lint", "media/demo.xml"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("1 tag linted: 0 errors"))
        let failing = try await vplay(["lint", "media/demo.xml", untitled])
        #expect(failing.status == 1)
        let place = try Self.inLinePlace(untitled)
        #expect(failing.stdout.contains("\(untitled):\(place.line):\(place.column): error[VAST-2.0-inline-adtitle] at hop 0: VAST/Ad[1]/InLine: <InLine> has no <AdTitle>"),
                "\(failing.stdout)")
        #expect(failing.stderr.split(separator: "\n").count == 1 && failing.stderr.contains("1 of 2 tags with an error-severity finding"), "\(failing.stderr)")
        // --rule turns it into a warning: the tag passes.
        let relaxed = try await vplay(["lint", untitled, "--rule", "VAST-2.0-inline-adtitle=warning"])
        #expect(relaxed.status == 0 && relaxed.stdout.contains("warning[VAST-2.0-inline-adtitle]"), "\(relaxed.stdout)")
        for bad in [["--rule", "VAST-2.0-inline-adtitel=off"], ["--rule", "VAST-2.0-inline-adtitle=fatal"], ["--config", folder.url.appendingPathComponent("none.toml").path], []] {
            let usage = try await vplay(["lint"] + (bad.isEmpty ? [] : [untitled]) + bad)
            #expect(usage.status == 2, "\(bad): \(usage.stderr)")
        }
    }

    /// The config file in the working directory applies; `--rule` applies after it.
    /// `lint --bid`: a folder's bid responses, each winning bid's markup linted with the bid's own findings; a bid the
    /// config turns into an error fails the run; a folder without one is a usage error.
    @Test func bidResponses_areLintedWithTheirOwnFindings() async throws {
        let run = try await vplay(["lint", "--bid", "media/bids", "--no-media", "--format", "ndjson"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let findings = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let choice = findings.filter { $0["id"] as? String == "VPLAY-bid-choice" }
        #expect(choice.count == 1 && (choice.first?["tag"] as? String)?.hasSuffix("bid-pair.json") == true, "\(findings.map { $0["id"] ?? "" })")
        let strict = try await vplay(["lint", "--bid", "media/bids/bid-pair.json", "--no-media", "--rule", "VPLAY-bid-choice=error"])
        #expect(strict.status == 1, "\(strict.stdout)")
        let folder = try TemporaryFolder()
        let empty = try await vplay(["lint", "--bid", folder.url.path])
        #expect(empty.status == 2 && empty.stderr.contains("a folder with no .json file to lint"), "\(empty.stderr)")
    }

    @Test func theConfigFileInTheWorkingDirectory_setsSeverities_andRuleOverridesIt() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        _ = try folder.write(".vplay-lint.toml", "[rules]\n\"VAST-2.0-inline-*\" = \"off\"\n")
        let quiet = try await vplay(["lint", untitled], in: folder.url)
        #expect(quiet.status == 0 && !quiet.stdout.contains("inline-adtitle"), "\(quiet.stdout)")
        let again = try await vplay(["lint", untitled, "--rule", "VAST-2.0-inline-adtitle=error"], in: folder.url)
        #expect(again.status == 1, "\(again.stdout)")
        _ = try folder.write("broken.toml", "[rules]\n\"VAST-2.0-inline-adtitle\" = off\n")
        let broken = try await vplay(["lint", untitled, "--config", "broken.toml"], in: folder.url)
        #expect(broken.status == 2 && broken.stderr.contains("broken.toml:2: the level must be a quoted string"), "\(broken.stderr)")
    }

    /// `inspect --strict` is lint's verdict with every warning an error: the team's config file applies, and an
    /// info finding (a verification not executed) does not fail it.
    @Test func inspectStrict_isLintWithEveryWarningAnError() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        let strict = try await vplay(["inspect", "--vast", untitled, "--strict"], in: folder.url)
        #expect(strict.status == 1 && strict.stderr.contains("the tag draws 1 warning (--strict)"), "\(strict.stderr)")
        let info = try await vplay(["inspect", "--vast", Repo.media("viewability.xml"), "--strict"], in: folder.url)
        #expect(info.status == 0 && info.stdout.contains("VPLAY-verification-not-executed"), "\(info.stdout)\(info.stderr)")
        _ = try folder.write(".vplay-lint.toml", "[rules]\n\"VAST-2.0-inline-adtitle\" = \"off\"\n")
        let relaxed = try await vplay(["inspect", "--vast", untitled, "--strict"], in: folder.url)
        #expect(relaxed.status == 0, "\(relaxed.stderr)")
    }

    /// Creative QA's options as a CI job passes them: the target, the ceiling, turning the decode off.
    @Test func creativeQA_optionsChangeWhatIsMeasured() async throws {
        let loud = try await vplay(["lint", "media/qa/loud.xml", "--format", "ndjson", "--rule", "VPLAY-creative-loudness=error"])
        #expect(loud.status == 1 && loud.stdout.contains("\"id\":\"VPLAY-creative-loudness\""), "\(loud.stdout)")
        let ebu = try await vplay(["lint", "media/qa/reference.xml", "--loudness=-16+-1", "--rule", "VPLAY-creative-*=error"])
        #expect(ebu.status == 1 && ebu.stdout.contains("-16 LUFS ±1 asks -16 ±1"), "\(ebu.stdout)")
        let off = try await vplay(["lint", "media/qa/loud.xml", "--no-creative"])
        #expect(off.status == 0 && !off.stdout.contains("VPLAY-creative"), "\(off.stdout)")
        for (bad, says) in [(["--loudness", "loud"], "--loudness loud: give atsc"), (["--max-true-peak=3"], "--max-true-peak must be from -60 to 0")] {
            let usage = try await vplay(["lint", "media/qa/loud.xml"] + bad)
            #expect(usage.status == 2 && usage.stderr.split(separator: "\n").first?.contains(says) == true, "\(bad): \(usage.stderr)")
        }
    }

    /// Ctrl-C during a lint: nothing is lost. The tags linted to their end are written (here the demo tag, first,
    /// while the next ones wait on a server that never answers), and the exit is 130.
    @Test(.hangLimit)
    func sigint_writesWhatWasLinted_andExits130() async throws {
        let server = try ScriptedHTTPServer(replies: [.stall(for: .seconds(120))])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("lint.ndjson").path
        let stalled = (1...20).map { "\(server.baseURL)/tag\($0).xml" }
        let running = try RunningVPlay(["lint", Repo.media("demo.xml")] + stalled + ["--jobs", "1", "--format", "ndjson", "--output", output],
                                       in: folder, killAfter: .seconds(100))
        // Ready once the server has the first stalled request: the demo tag, linted before it, is done.
        while server.requestsRead == 0 {
            if running.child.hasExited { Issue.record("vplay lint exited early: \(running.errors)"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
        running.child.signal(SIGINT)
        let exit = await running.exit.value
        #expect(!exit.killed && exit.status == 130, "stderr: \(running.errors)")
        #expect(running.errors.contains("of 21 tags linted") && !running.errors.contains("21 of 21"), "\(running.errors)")
        // The demo tag's findings; on a machine so loaded that a stalled tag's 8 s timeout ran out before the signal
        // came, that tag's 301 too (it was linted to its end). Never a finding of a tag cut short.
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("demo.xml") }, "\(lines)")
        let stalledTags = Set(stalled.filter { tag in lines.contains { $0.contains("\"tag\":\"\(tag)\"") } })
        #expect(lines.allSatisfy { line in line.contains("demo.xml") || stalledTags.contains { line.contains($0) } }, "\(lines)")
        #expect(stalledTags.allSatisfy { tag in lines.contains { $0.contains(tag) && $0.contains("VPLAY-error-301") } },
                "a stalled tag in the output was linted to its end (its timeout's 301): \(lines)")
    }

    @Test func sarif_validatesAgainstTheOfficialSchema_andPlacesEachFinding() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        let output = folder.url.appendingPathComponent("lint.sarif").path
        let run = try await vplay(["lint", untitled, "media/viewability.xml", "--format", "sarif", "--output", output])
        #expect(run.status == 1 && run.stdout.isEmpty, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(try await ExternalValidators.jsonSchema(data, schemaFile: "sarif-schema-2.1.0.json") == "")
        let sarif = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let runs = try #require(sarif["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        let title = try #require(results.first { $0["ruleId"] as? String == "VAST-2.0-inline-adtitle" })
        #expect(title["level"] as? String == "error")
        let region = try #require(((title["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        let place = try Self.inLinePlace(untitled)
        #expect(region["startLine"] as? Int == place.line && region["startColumn"] as? Int == place.column, "\(region)")
        #expect("\(title["locations"] ?? "")".contains("VAST/Ad[1]/InLine"))
        #expect(results.contains { $0["ruleId"] as? String == "VPLAY-verification-not-executed" && $0["level"] as? String == "note" })
        let rules = try #require(((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.count > 100, "every rule that ran is described")
    }

    @Test func junitAndNDJSON_validateAgainstTheirSchemas() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        let junit = try await vplay(["lint", untitled, "--format", "junit"])
        #expect(junit.status == 1)
        #expect(try await ExternalValidators.xmlSchema(Data(junit.stdout.utf8), xsd: "junit.xsd") == "")
        #expect(junit.stdout.contains(#"<testcase name="VAST-2.0-inline-adtitle""#) && junit.stdout.contains("<failure"), "\(junit.stdout.prefix(2000))")
        let ndjson = try await vplay(["lint", untitled, "media/viewability.xml", "--format", "ndjson"])
        let path = try folder.write("findings.jsonl", ndjson.stdout)
        #expect(try await JSONSchemaCheck.validate([.init(path, schema: "lint-finding.schema.json", form: .jsonLines)]) == [])
        #expect(ndjson.lines.contains { $0["id"] as? String == "VAST-2.0-inline-adtitle" && $0["severity"] as? String == "error" && $0["tag"] as? String == untitled })
        let rules = try await vplay(["rules", "--json"])
        let rulesPath = try folder.write("rules.json", rules.stdout)
        #expect(try await JSONSchemaCheck.validate([.init(rulesPath, schema: "rules.schema.json")]) == [])
    }

    /// A folder lints every `.xml` in it, in name order; an output that would replace a tag is refused before anything.
    @Test func aFolder_lintsItsTags_andAnOutputNeverReplacesATag() async throws {
        let folder = try TemporaryFolder()
        let untitled = try Self.untitled(folder)
        let run = try await vplay(["lint", folder.url.path, "--format", "ndjson"])
        #expect(run.status == 1 && run.lines.allSatisfy { $0["tag"] as? String == untitled }, "\(run.stdout)")
        let before = try Data(contentsOf: URL(fileURLWithPath: untitled))
        let clash = try await vplay(["lint", untitled, "--output", untitled])
        let after = try Data(contentsOf: URL(fileURLWithPath: untitled))
        #expect(clash.status == 2 && after == before, "\(clash.stderr)")
    }
}
