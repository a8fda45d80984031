import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import vplay

/// How vplay behaves as a command-line tool: one error format on stderr, `--quiet`, an unknown subcommand named,
/// help that lists only the exit codes a command can return, a live line that never comes back under the summary,
/// and a man page and completion scripts that match the binary.
@Suite(.hangLimit) struct CLIMannersTests {
    /// Every line an error run wrote to stderr is vplay's (`vplay: error: …`, or ArgumentParser's usage lines that
    /// follow a usage error).
    func expectOneFormat(_ run: Invocation, _ first: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("vplay: error: " + first) == true, "stderr: \(run.stderr)", sourceLocation: sourceLocation)
        for line in lines.dropFirst() {
            #expect(line.hasPrefix("vplay: ") || line.hasPrefix("Usage: ") || line.hasPrefix("  See ") || line.hasPrefix("Help: "),
                    "stderr line: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// Only a process shows stderr and the exit status: each failing command writes one `vplay: error: …` line first
    /// (a usage error, a missing tag, media or shard, a fleet whose tag has no ad), and stdout stays JSON Lines. The
    /// fleet that cannot play still writes its `--report` and `--junit`, saying why (issue 37, item 16), each valid
    /// against its schema.
    @Test func errors_onStderr_inOneFormat() async throws {
        let folder = try TemporaryFolder()
        let noAd = try folder.write("empty.xml", #"<VAST version="4.1"></VAST>"#)
        let report = folder.url.appendingPathComponent("fleet.json").path, junit = folder.url.appendingPathComponent("fleet.xml").path
        let cases: [([String], Int32, String)] = [
            (["--vast", "media/demo.xml", "--bogus"], 2, "Unknown option '--bogus'"),
            (["--vast", "/nonexistent/tag.xml"], 3, "VAST 301: cannot open /nonexistent/tag.xml"),
            (["--vast", "/nonexistent/tag.xml", "--json"], 3, "VAST 301:"),
            (["probe", "/nonexistent/clip.mp4"], 4, "VAST 401:"),
            (["merge", "/nonexistent/shard-0.json"], 2, "/nonexistent/shard-0.json: cannot read it"),
            (["fleet", "--vast", noAd, "--sessions", "3", "--dry-run", "--report", report, "--junit", junit], 3, "the fleet cannot play: VAST 303"),
        ]
        for (arguments, status, first) in cases {
            let run = try await vplay(arguments)
            #expect(run.status == status, "\(arguments): exit \(run.status)")
            expectOneFormat(run, first)
            if arguments.contains("--json") {
                #expect(run.lines.count == run.stdout.split(separator: "\n").count, "stdout stays JSON Lines")
            }
        }
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let error = written?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == 303 && error?["kind"] as? String == "ad", "\(String(describing: written?["error"]))")
        #expect((written?["fleet"] as? [String: Any])?["sessions"] as? Int == 3)
        #expect(try await JSONSchemaCheck.validate([.init(report, schema: "fleet-report.schema.json")]).isEmpty)
        let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
        #expect(String(decoding: xml, as: UTF8.self).contains(#"<testcase name="the ad plays""#))
        #expect(try await ExternalValidators.xmlSchema(xml, xsd: "jenkins-junit-4.xsd").isEmpty)
        #expect(try await ExternalValidators.xmlSchema(xml, xsd: "junit.xsd").isEmpty)
    }

    /// Only a process shows exit 2 and the stderr line naming the unknown subcommand, and `vplay help inspect` exit 0.
    @Test func unknownSubcommand_isNamed_notTakenForRun() async throws {
        let run = try await vplay(["bogus", "--vast", "media/demo.xml"])
        #expect(run.status == 2)
        expectOneFormat(run, "unknown subcommand 'bogus'")
        #expect(run.stderr.contains("run, inspect, lint, rules, probe, fleet, merge, sink"))
        #expect(try await vplay(["help", "inspect"]).status == 0, "`vplay help CMD` still works")
    }

    /// Only a process shows what `--quiet` leaves on stdout and stderr, for run, fleet and inspect, and on a failure.
    @Test func quiet_printsNothingButWhatWasAskedFor() async throws {
        let text = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--quiet", "--macro", "FOO=1"])
        #expect(text.status == 0 && text.stdout.isEmpty && text.stderr.isEmpty, "stdout: \(text.stdout) stderr: \(text.stderr)")
        let json = try await vplay(["--vast", "media/demo.xml", "--dry-run", "-q", "--json"])
        #expect(json.status == 0 && json.stderr.isEmpty)
        #expect(json.lines.last?["kind"] as? String == "summary", "--json is still printed")
        let failed = try await vplay(["--vast", "/nonexistent/tag.xml", "--quiet"])
        #expect(failed.status == 3 && failed.stdout.isEmpty)
        expectOneFormat(failed, "VAST 301:")
        let fleet = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "5", "--dry-run", "--quiet"])
        #expect(fleet.status == 0 && fleet.stdout.isEmpty && fleet.stderr.isEmpty)
        let inspect = try await vplay(["inspect", "--vast", "media/demo.xml", "--quiet"])
        #expect(inspect.status == 0 && inspect.stdout.isEmpty && inspect.stderr.isEmpty)
    }

    /// `--quiet` exited 1 or 5 with nothing on stderr, and `inspect` told its errors on stdout only: every non-zero
    /// exit now writes one `vplay: error:` line saying why, and only one.
    /// Only a process shows its exit status beside an empty or one-line stderr.
    @Test func everyNonZeroExit_saysWhyInOneLine_evenQuiet() async throws {
        let folder = try TemporaryFolder()
        let noAd = try folder.write("empty.xml", #"<VAST version="4.1"></VAST>"#)
        let refused = try folder.write("tag.xml", try DemoTags.text(beaconBase: "http://127.0.0.1:\(ScriptedHTTPServer.closedPort())"))
        let expectations = try folder.write("expect.yaml", "events:\n  - name: complete\n    count: 2\n")
        let cases: [([String], Int32, String)] = [
            (["--vast", "media/demo.xml", "--dry-run", "--quiet", "--expect", expectations], 1, "1 of 1 expectations failed"),
            (["--vast", refused, "--quiet", "--fail-on-beacon-errors", "--beacon-timeout", "60"], 5, "12 beacons failed"),
            (["inspect", "--vast", noAd, "--json"], 3, "VAST 303:"),
            (["inspect", "--vast", noAd, "--quiet"], 3, "VAST 303:"),
        ]
        for (arguments, status, first) in cases {
            let run = try await vplay(arguments)
            #expect(run.status == status, "\(arguments): exit \(run.status) \(run.stderr)")
            expectOneFormat(run, first)
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("(exit \(status))"), "\(arguments): \(run.stderr)")
        }
    }

    /// Each command's help as ArgumentParser prints it (in process: the text is the commands' own), its exit-code
    /// paragraph naming only the codes that command can return.
    @Test(arguments: [
        ("inspect", ["5 beacon", "130", "expectation failed"]),
        ("probe", ["1 ", "3 ad error", "5 beacon", "130"]),
        ("merge", ["3 ad error", "4 media error", "5 beacon", "130"]),
    ])
    func help_listsOnlyTheExitCodesTheCommandCanReturn(_ command: String, _ absent: [String]) throws {
        let type: ParsableCommand.Type = switch command {
        case "inspect": InspectCommand.self
        case "probe": ProbeCommand.self
        default: MergeCommand.self
        }
        let help = VPlay.helpMessage(for: type, columns: 80)
        let codes = try #require(help.range(of: "Exit codes:").map { String(help[$0.lowerBound...]) })
        let paragraph = codes.components(separatedBy: "\n\n")[0].replacingOccurrences(of: "\n", with: " ")
        for text in absent { #expect(!paragraph.contains(text), "\(command): \(paragraph)") }
        #expect(paragraph.contains("2 usage error"))
    }

    /// No option states its default twice: ArgumentParser prints a property's initial value itself, so help that also
    /// writes "(default: …)" said it twice (`--seed`, `--ad-unit`).
    @Test func help_statesEachDefaultOnce() {
        for type in VPlay.configuration.subcommands {
            let help = VPlay.helpMessage(for: type, columns: 10_000).replacingOccurrences(of: "\n", with: " ")
            let doubled = try? NSRegularExpression(pattern: #"(\(default: [^)]*\))\s+\1"#)
            let found = doubled?.firstMatch(in: help, range: NSRange(help.startIndex..., in: help))
            #expect(found == nil, "\(type): \(found.map { String(help[Range($0.range, in: help)!]) } ?? "")")
        }
    }

    /// On a terminal (a pseudo-terminal from `script`), the real-time status line is cleared for good before the
    /// summary: nothing of it follows the summary's headline. Run a few times: the bug was a race (3 runs in 5).
    @Test func liveLine_neverRedrawsAfterTheSummary() async throws {
        for _ in 0..<3 {
            let command = "TERM=xterm \(Repo.vplayBinary) --vast media/demo.xml --dry-run --clock realtime --speed 25"
            let run = try await runProcess("/usr/bin/script", ["-qec", command, "/dev/null"])
            #expect(run.status == 0, "\(run.stdout)")
            let summary = try #require(run.stdout.range(of: "summary:"), "\(run.stdout)")
            #expect(run.stdout[..<summary.lowerBound].contains("▶"), "the live line was shown while it played")
            let after = run.stdout[summary.lowerBound...]
            #expect(!after.contains("▶") && !after.contains("❚❚"), "the live line came back after the summary: \(after.debugDescription)")
        }
    }

    /// docs/man/vplay.1 and docs/completions/ are what scripts/make-docs.sh makes of this binary: the completion
    /// scripts byte for byte, the man page naming every subcommand and option.
    @Test func manPageAndCompletions_matchTheBinary() async throws {
        let docs = Repo.root.appendingPathComponent("docs")
        // The completion scripts as `vplay --generate-completion-script SHELL` prints them (ArgumentParser's own text
        // and a newline), made in process.
        for (shell, file) in [(CompletionShell.bash, "completions/vplay.bash"), (.zsh, "completions/_vplay"), (.fish, "completions/vplay.fish")] {
            let committed = try String(contentsOfFile: docs.appendingPathComponent(file).path, encoding: .utf8)
            #expect(committed == CompletionScripts.script(for: shell) + "\n", "docs/\(file) is stale: run scripts/make-docs.sh")
        }
        let page = try String(contentsOfFile: docs.appendingPathComponent("man/vplay.1").path, encoding: .utf8)
        let dump = try await vplay(["--experimental-dump-help"])
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        var names: [String] = []
        var texts: [String] = []
        var withoutFileCompletion: [String] = []
        func collect(_ command: [String: Any]) {
            names.append(command["commandName"] as? String ?? "")
            texts += [command["abstract"] as? String, command["discussion"] as? String].compactMap { $0 }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                texts += [argument["abstract"] as? String, argument["discussion"] as? String].compactMap { $0 }
                texts += (argument["valueName"] as? String).map { [$0] } ?? []
                // Issue 37, item 21: an option that takes a file or folder completes file names in every shell.
                if let value = argument["valueName"] as? String, ["file", "dir", "path|url"].contains(value) {
                    let kind = argument["completionKind"] as? [String: Any]
                    if kind?["file"] == nil && kind?["directory"] == nil {
                        withoutFileCompletion.append("\(command["commandName"] as? String ?? "") \((argument["preferredName"] as? [String: Any])?["name"] as? String ?? "")")
                    }
                }
                if let name = (argument["preferredName"] as? [String: Any])?["name"] as? String, argument["kind"] as? String != "positional" {
                    names.append(name)
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
        }
        collect(root)
        #expect(names.count > 100)
        let missing = Set(names.filter { !page.contains($0) })
        #expect(missing.isEmpty, "docs/man/vplay.1 is stale (run scripts/make-docs.sh): no \(missing.sorted())")
        // ArgumentParser's man page generator drops every non-ASCII character (`…` came out as nothing): help
        // text is ASCII, so the page says all of it (issue 37, item 21).
        let nonASCII = texts.filter { !$0.allSatisfy(\.isASCII) }
        #expect(nonASCII.isEmpty, "help text the man page would cut: \(nonASCII)")
        #expect(withoutFileCompletion.isEmpty, "options taking a file that complete no file name: \(withoutFileCompletion)")
    }
}
