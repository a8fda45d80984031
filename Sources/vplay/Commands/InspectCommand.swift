import AdSession
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

    @Flag(help: "Lint: exit 1 when the tag draws any warning (a playable tag with warnings exits 0 otherwise).")
    var strict = false

    func validate() throws {
        try network.validate(bandwidth: tag.bandwidth)
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
            // `--strict`: a tag that plays but draws warnings fails a CI lint step.
            try CommandOutputs.exit(strict && !inspection.warnings.isEmpty ? ExitCode.expectationFailed.rawValue : 0,
                                    reason: "the tag draws \(inspection.warnings.count) warnings (--strict)")
        }
    }
}
