import ArgumentParser
import Testing
@testable import vplay

/// A command line parsed in-process, as `vplay` parses it (no process; no I/O but what the options themselves read).
enum CLI {
    /// The command `arguments` parse to, which must be a `Command`.
    static func parse<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) throws -> Command {
        let command = try VPlay.parseAsRoot(arguments)
        guard let command = command as? Command else { throw CLIError("\(arguments) parse to \(Swift.type(of: command)), not \(type)") }
        return command
    }

    /// The message `vplay arguments…` prints before it exits 2, or nil when the arguments are not a usage error
    /// (they parse, or fail some other way).
    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try VPlay.parseAsRoot(arguments)
            return nil
        } catch {
            return VPlay.usageMessage(for: error)
        }
    }
}

/// A test's own failure, with what went wrong.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
