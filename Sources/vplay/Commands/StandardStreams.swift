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

