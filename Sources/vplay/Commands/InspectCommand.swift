import AdSession
import Findings
import ArgumentParser
import Foundation

/// `vplay inspect --vast TAG`: the resolved chain, the media file chosen and why, every tracking URL by event and
/// source, warnings and errors — without playing.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Resolve a tag and show its wrapper chain, chosen media, every tracking URL, warnings and errors.",
        discussion: ExitCode.inspectDocumentation
    )

    @OptionGroup var tag: TagOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var pods: PodOptions

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var quietOption: QuietOption

    @Flag(help: "Do not open the chosen media file (skips the duration check).")
    var noMedia = false

    @Flag(help: "Lint: exit 1 when the tag draws any warning (vplay lint with every warning an error, under .vplay-lint.toml when there is one).")
    var strict = false

    func validate() throws {
        try tag.requireVAST("inspect")
        try network.validate(bandwidth: tag.bandwidth)
        if strict { _ = try LintCommand.policy(config: nil, rules: []) }
    }

    func run() async throws {
        quietOption.apply()
        var configuration = SessionConfiguration(tag: tag.vast)
        network.apply(to: &configuration)
        tag.apply(to: &configuration)
        pods.apply(to: &configuration)
        let inspection = await AdInspector(configuration: configuration).inspect(openMedia: !noMedia)
        if json { StandardStreams.print(InspectRendering.json(inspection).text) } else { StandardStreams.say(InspectRendering.text(inspection)) }
        // Errors are told on stderr too (the report on stdout may be JSON for a machine, or silenced).
        let error = inspection.errors.first.map { "VAST \($0.code): \($0.message)" }
        switch inspection.outcome {
        case .adError: try CommandOutputs.exit(ExitCode.adError.rawValue, reason: error)
        case .mediaError: try CommandOutputs.exit(ExitCode.mediaError.rawValue, reason: error)
        case .usageError: try CommandOutputs.exit(ExitCode.usage.rawValue, reason: error)
        case .completed, .interrupted:
            // `--strict`: lint's verdict with every warning an error: a tag that plays but draws a finding that is
            // a warning (or an error) under the team's config file fails a CI lint step; rules it turns off or
            // makes info do not.
            let policy = strict ? try LintCommand.policy(config: nil, rules: []) : RulePolicy()
            let failing = strict ? TagLint(inspection, policy: policy).findings.filter { $0.severity != .info }.count : 0
            try CommandOutputs.exit(failing > 0 ? ExitCode.expectationFailed.rawValue : 0,
                                    reason: "the tag draws \(failing) warning\(failing == 1 ? "" : "s") (--strict)")
        }
    }
}
