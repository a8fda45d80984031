import Primitives
import ArgumentParser
import Foundation

/// The command tree. `main.swift` starts it: SignalWatch must block signals on the main thread before any other
/// thread exists, which an `async` `@main` cannot promise (its body may run on a worker thread).
struct VPlay: AsyncParsableCommand {
    /// vplay's version, the one place it is written: `vplay --version` prints it.
    static let version = VPlayVersion.current

    static let configuration = CommandConfiguration(
        commandName: "vplay",
        abstract: "A headless rewarded-video ad player: resolves a VAST tag, decodes its media with FFmpeg on a clock, fires its tracking.",
        discussion: """
            Without a subcommand, vplay runs `run`: `vplay --vast ad.xml [options]`. Its options (clock, script, \
            media selection, beacons, sink, reports, expectations) are listed by `vplay run --help`.

            \(ExitCode.documentation)
            """,
        version: "vplay \(version)",
        subcommands: [RunCommand.self, InspectCommand.self, LintCommand.self, RulesCommand.self, ProbeCommand.self, FleetCommand.self, MergeCommand.self, SinkCommand.self, BeaconLoadCommand.self, RewardCheckCommand.self, AuditCommand.self, StudioCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's own entry point, except that usage errors exit 2 (docs/reference/exit-codes.md) rather than
    /// EX_USAGE (64). Never returns: it exits with the command's code.
    static func entry() async -> Never {
        if let script = CompletionScripts.requested(by: Array(CommandLine.arguments.dropFirst())) {
            // With the lines that complete the default subcommand (`CompletionScripts`).
            StandardStreams.print(script)
            Foundation.exit(0)
        }
        if let message = unknownSubcommand(Array(CommandLine.arguments.dropFirst())) {
            StandardStreams.fail(message)
            Foundation.exit(ExitCode.usage.rawValue)
        }
        do {
            // `--replay BUNDLE` stands for the bundle's command line (`RunBundle`).
            let arguments = try RunBundle.expand(Array(CommandLine.arguments.dropFirst()))
            RunBundle.commandLine.withLock { $0 = arguments }
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch {
            if let refusal = error as? ValidationError {
                // Thrown by a command's run (an input found bad once read): its words alone, in one line, not the
                // root command's usage after them.
                StandardStreams.error(StandardStreams.usageError(refusal.message) + "\n")
                Foundation.exit(ExitCode.usage.rawValue)
            }
            if let message = usageMessage(for: error) {
                StandardStreams.error(StandardStreams.usageError(message) + "\n")
                Foundation.exit(ExitCode.usage.rawValue)
            }
            // Help, --version and completion scripts print as ArgumentParser words them; `ExitCode` carries only
            // a code (its command already said why); anything else is an error in vplay's format.
            let code = exitCode(for: error)
            if error is ExitCode || code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { StandardStreams.error(StandardStreams.usageError(message) + "\n") }
            Foundation.exit(code.rawValue)
        }
    }

    /// The error when the first argument looks like a subcommand (not an option) but names none: `vplay bogus`
    /// would otherwise run `run` and complain that `--vast` is missing.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.contains(first), first != "help" else { return nil }
        return "unknown subcommand '\(first)'; vplay's subcommands are \(names.joined(separator: ", ")) (and `vplay --vast …` runs `run`)"
    }

    /// What `entry` prints before it exits 2 when `error` is a usage error: an unknown flag, a value its option does
    /// not take (refused while the command line is parsed), options that do not go together (`validate()`); nil for
    /// any other error.
    static func usageMessage(for error: any Error) -> String? {
        exitCode(for: error) == .validationFailure ? fullMessage(for: error) : nil
    }
}
