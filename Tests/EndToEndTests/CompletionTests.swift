import Foundation
import Testing
import TestSupport

/// Issue 37, item 21: the completion scripts in docs/completions/ (what `vplay --generate-completion-script SHELL`
/// prints, checked in `CLIMannersTests`) complete in the real shells — bash, zsh and fish, which scripts/setup.sh
/// installs — and complete the form users type most, `vplay --vast ad.xml --dry-run`, as `vplay run …`: the scripts
/// ArgumentParser generates offered nothing after `vplay --`, since only subcommand names follow the root there.
@Suite(.hangLimit) struct CompletionTests {
    static let completions = Repo.root.appendingPathComponent("docs/completions")
    static let tools = Repo.root.appendingPathComponent("Tests/Tools")

    /// A command line, and a candidate the shell must offer for its last word.
    static let cases: [(line: String, offers: @Sendable (String) -> Bool, what: String)] = [
        ("vplay --dr", { $0 == "--dry-run" }, "--dry-run, an option of the default subcommand"),
        ("vplay --vast media/demo.xml --ca", { $0 == "--ca-cert" }, "--ca-cert after a first option and its value"),
        ("vplay --vast media/de", { $0.hasSuffix("demo.xml") }, "a file name for --vast of the default form"),
        ("vplay fleet --sess", { $0 == "--sessions" }, "a subcommand's option, as before"),
        ("vplay ", { $0 == "fleet" }, "the subcommands, as before"),
    ]

    static func candidates(_ shell: String, _ line: String) async throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(shell) is not installed: run scripts/setup.sh"])
        }
        let run: Invocation = switch shell {
        case "bash": try await runProcess("/usr/bin/bash", [tools.appendingPathComponent("complete.bash").path,
                                                             completions.appendingPathComponent("vplay.bash").path, Repo.root.path, line])
        case "zsh": try await runProcess("/usr/bin/zsh", ["-f", tools.appendingPathComponent("complete.zsh").path, completions.path, Repo.root.path, line])
        default: try await runProcess("/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                                                        completions.appendingPathComponent("vplay.fish").path, line])
        }
        #expect(run.status == 0, "\(shell) \(line): \(run.stderr)")
        // fish gives `candidate<TAB>description`.
        return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theDefaultForm_completesAsRun_inTheRealShell(_ shell: String) async throws {
        for (line, offers, what) in Self.cases {
            let offered = try await Self.candidates(shell, line)
            #expect(offered.contains(where: offers), "\(shell), `\(line)`: expected \(what); got \(offered.prefix(20))")
        }
    }
}
