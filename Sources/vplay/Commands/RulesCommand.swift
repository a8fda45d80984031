import AdSession
import ArgumentParser
import Findings

/// `vplay rules`: every rule vplay checks, with its ID, default severity, spec reference and summary.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule vplay checks: its stable ID, default severity, spec reference and summary.",
        discussion: "IDs in vastlint's form (VAST-2.0-...) are vastlint's, for the checks both tools make; VPLAY-... IDs are vplay's own. Exit codes: 0; 2 usage error (or stdout could not be written)."
    )

    @Flag(help: "Print a JSON array (schemas/rules.schema.json) instead of text.")
    var json = false

    func run() async throws {
        StandardStreams.print(json ? RuleRendering.json(.standard).text : RuleRendering.text(.standard))
        try CommandOutputs.exit(0)
    }
}
