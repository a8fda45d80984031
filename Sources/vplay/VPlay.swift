import ArgumentParser
import Foundation

@main
struct VPlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vplay",
        abstract: "A headless rewarded-video ad player: resolves a VAST tag, decodes its media with FFmpeg on a clock, fires its tracking.",
        discussion: """
            Without a subcommand, vplay runs `run`: `vplay --vast ad.xml [options]`. Its options (clock, script, \
            media selection, beacons, sink, reports, expectations) are listed by `vplay run --help`.

            \(ExitCode.documentation)
            """,
        subcommands: [RunCommand.self, InspectCommand.self, ProbeCommand.self, SinkCommand.self, BeaconLoadCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's own entry point, except that usage errors exit 2 (the README's code) rather than
    /// EX_USAGE (64).
    static func main() async {
        // A parent may start us with SIGINT/SIGTERM blocked (test runners and some CI agents do, and a child inherits
        // its parent's signal mask): unblock them so Ctrl-C and `kill` always reach SignalWatch.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
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
