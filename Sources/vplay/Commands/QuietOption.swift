import ArgumentParser
import Primitives

/// `--quiet`, declared once for every command that prints text for a person.
struct QuietOption: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.")
    var quiet = false

    /// Sets `StandardStreams.quiet` for the run.
    func apply() { if quiet { StandardStreams.quiet = true } }
}
