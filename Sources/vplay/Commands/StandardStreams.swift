import ArgumentParser
import Primitives

/// vplay's stdout and stderr, written through `OutputFile` like every other output: a failed stdout (closed, a
/// broken pipe, a full disk) is kept and reported once at the end (`CommandOutputs.exit`), and the run goes on; a
/// failed stderr has nowhere to be told.
enum StandardStreams {
    /// Writes `text` and a newline to stdout.
    static func print(_ text: String) {
        try? OutputFile.standardOutput.write(text + "\n")
    }

    /// Writes `text` as it is to stderr.
    static func error(_ text: String) {
        try? OutputFile.standardError.write(text)
    }

    /// Writes `vplay: text` and a newline to stderr.
    static func warn(_ text: String) {
        error("vplay: \(text)\n")
    }
}

/// How a command ends once it has written its outputs.
enum CommandOutputs {
    /// Tells each output that failed (stdout's failure too) on stderr, then ends with `code`, or with 2 (usage: an
    /// output could not be written) when one failed, unless a signal ended the run (`code` 128 + N stays, as a
    /// shell expects it). Throws the `ExitCode` to end with, nothing for 0.
    static func exit(_ code: Int32, failures: [String] = [], signalled: Bool = false) throws {
        var failures = failures
        if let stdout = OutputFile.standardOutput.failure { failures.append(stdout.description) }
        for failure in failures { StandardStreams.warn(failure) }
        let final = failures.isEmpty || signalled ? code : ExitCode.usage.rawValue
        if final != 0 { throw ExitCode(final) }
    }
}
