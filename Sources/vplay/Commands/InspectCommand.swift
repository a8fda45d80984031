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

    @OptionGroup(title: "VMAP") var vmap: VMAPOptions

    @Option(help: ArgumentHelp("--tracking-doc: client (the player fires every timed event) or hybrid (the server fires impression, start, quartiles, complete, breakStart and breakEnd).", valueName: "client|hybrid"))
    var reporting: TrackedStreamPlayback.Reporting = .client

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var quietOption: QuietOption

    @Flag(help: "Do not open the chosen media file (skips the duration check).")
    var noMedia = false

    @Flag(help: "Lint: exit 1 when the tag draws any warning (vplay lint with every warning an error, under .vplay-lint.toml when there is one).")
    var strict = false

    func validate() throws {
        try network.validate(bandwidth: tag.bandwidth)
        if strict { _ = try LintCommand.policy(config: nil, rules: []) }
    }

    func run() async throws {
        quietOption.apply()
        var configuration = SessionConfiguration(tag: tag.vast)
        network.apply(to: &configuration)
        tag.apply(to: &configuration)
        pods.apply(to: &configuration)
        if tag.trackingDoc != nil {
            try await inspectTracking(configuration)
            return
        }
        let mode = tag.sessionMode
        if let inspection = await VMAPInspector(configuration: configuration, playback: vmap.playback, mode: mode).inspect(openMedia: !noMedia) {
            try finish(inspection)
            return
        }
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

    /// A VMAP document's inspection: exit 3 when it cannot play or a break's ads would not play (one line on stderr).
    func finish(_ inspection: VMAPInspection) throws {
        if json { StandardStreams.print(VMAPInspectRendering.json(inspection, tag: tag.vast).text) } else { StandardStreams.say(VMAPInspectRendering.text(inspection)) }
        if let error = inspection.document.documentError {
            try CommandOutputs.exit(ExitCode.adError.rawValue, reason: "VMAP \(error.code.rawValue): \(error.message)")
        }
        if let failed = inspection.breaks.first(where: { $0.report.outcome == .failed }) {
            let why = failed.report.errors.first.map { ": \($0.code) \($0.message)" } ?? ""
            try CommandOutputs.exit(ExitCode.adError.rawValue, reason: "VMAP break \(failed.report.number) (\(failed.report.offsetText)) would play no ad\(why)")
        }
        // `--strict`: as for a VAST tag, each break's ads under lint's verdict.
        let policy = strict ? try LintCommand.policy(config: nil, rules: []) : RulePolicy()
        let failing = strict ? inspection.breaks.compactMap(\.ads).map { TagLint($0, policy: policy).findings.filter { $0.severity != .info }.count }.reduce(0, +) : 0
        try CommandOutputs.exit(failing > 0 ? ExitCode.expectationFailed.rawValue : 0,
                                reason: "the breaks' ads draw \(failing) warning\(failing == 1 ? "" : "s") (--strict)")
    }
}
