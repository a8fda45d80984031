import ArgumentParser

@main
struct VPlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vplay",
        abstract: "A headless rewarded-video ad player: resolves a VAST tag, decodes its media with FFmpeg on a clock, fires its tracking.",
        discussion: ExitCode.documentation,
        subcommands: [RunCommand.self, ProbeCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
