import ArgumentParser
import Foundation

@main
struct VPlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vplay",
        abstract: "A headless rewarded-video ad player: resolves a VAST tag, decodes its media with FFmpeg on a clock, fires its tracking.",
        discussion: ExitCode.documentation,
        subcommands: [RunCommand.self, InspectCommand.self, ProbeCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's own entry point, except that usage errors exit 2 (the README's code) rather than
    /// EX_USAGE (64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitCode.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}
