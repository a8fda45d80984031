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

    /// `--quiet`: nothing for a person to read (text reports, warnings, notes, progress); data asked for (`--json`
    /// on stdout, files) and errors still come. Set once, before the command's work starts.
    static var quiet: Bool {
        get { quietFlag.withLock { $0 } }
        set { quietFlag.withLock { $0 = newValue } }
    }
    private static let quietFlag = Locked(false)

    /// The one format of vplay's errors on stderr: `vplay: error: text`. Never silenced.
    static func fail(_ text: String) {
        failed.withLock { $0 = true }
        error("vplay: error: \(text)\n")
    }

    /// Whether an error line has been written (`CommandOutputs.exit` writes one for a non-zero exit that has none).
    static var hasFailed: Bool { failed.withLock { $0 } }
    private static let failed = Locked(false)

    /// `vplay: warning: text` on stderr, unless `--quiet`.
    static func warn(_ text: String) {
        if !quiet { error("vplay: warning: \(text)\n") }
    }

    /// `vplay: text` on stderr, unless `--quiet`: what vplay is doing (interrupted, listening), not a problem.
    static func note(_ text: String) {
        if !quiet { error("vplay: \(text)\n") }
    }

    /// Human text on stdout (a text report), unless `--quiet`.
    static func say(_ text: String) {
        if !quiet { print(text) }
    }

    /// An error message as ArgumentParser words it ("Error: …", then usage lines) in vplay's format.
    static func usageError(_ message: String) -> String {
        let body = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
        return "vplay: error: " + body
    }
}

/// `--quiet`, declared once for every command that prints text for a person.
struct QuietOption: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.")
    var quiet = false

    /// Sets `StandardStreams.quiet` for the run.
    func apply() { if quiet { StandardStreams.quiet = true } }
}

/// How a command ends once it has written its outputs.
enum CommandOutputs {
    /// Tells each output that failed (stdout's failure too) on stderr, then ends with `code`, or with 2 (usage: an
    /// output could not be written) when one failed, unless a signal ended the run (`code` 128 + N stays, as a
    /// shell expects it). Throws the `ExitCode` to end with, nothing for 0.
    ///
    /// Every non-zero exit says why on stderr in one line, `--quiet` or not: `reason` (what failed, in words) when no
    /// error line was written yet, else the code's meaning. A signal's exit was already told (`interrupted`).
    static func exit(_ code: Int32, failures: [String] = [], signalled: Bool = false, reason: @autoclosure () -> String? = nil) throws {
        var failures = failures
        if let stdout = OutputFile.standardOutput.failure { failures.append(stdout.description) }
        for failure in failures { StandardStreams.fail(failure) }
        let final = failures.isEmpty || signalled ? code : ExitCode.usage.rawValue
        if final != 0, !signalled, !StandardStreams.hasFailed {
            StandardStreams.fail("\(reason() ?? meaning(final)) (exit \(final))")
        }
        if final != 0 { throw ExitCode(final) }
    }

    /// What an exit code means, when the command gave no reason of its own.
    static func meaning(_ code: Int32) -> String {
        switch code {
        case ExitCode.expectationFailed.rawValue: "a check failed"
        case ExitCode.usage.rawValue: "usage error"
        case ExitCode.adError.rawValue: "ad error"
        case ExitCode.mediaError.rawValue: "media error"
        case ExitCode.beaconFailures.rawValue: "beacons were not delivered"
        default: "failed"
        }
    }
}
