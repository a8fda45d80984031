import ArgumentParser
import Foundation
import PlayerEngine

/// What the simulated user and operating system do during a run: `--script` or `--script-file`, one of them.
struct ScriptOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Scripted actions at session seconds since the first frame, e.g. mute@1,background@3,foreground@13,skip@+2; background@load+0.5 times a lifecycle step from the ad request (docs/guides/qa.md \"Scripts\").", valueName: "steps"),
            transform: Self.script)
    var script: SessionScript?

    @Option(name: .customLong("script-file"), help: ArgumentHelp("The same as a JSON file: [{\"at\": 1, \"action\": \"mute\"}, ...].", valueName: "file"),
            completion: .file(), transform: Self.scriptFile)
    var scriptInput: InputFile<SessionScript>?

    var scriptFile: SessionScript? { scriptInput?.value }

    /// The script given, or none.
    var steps: SessionScript { script ?? scriptFile ?? SessionScript() }

    func validate() throws {
        if script != nil && scriptFile != nil { throw ValidationError("--script and --script-file exclude each other") }
    }

    @Sendable static func script(_ text: String) throws -> SessionScript {
        do { return try SessionScript(parsing: text) } catch { throw ValidationError(error.description) }
    }

    /// Reads and parses the file now, once: a file that cannot be read or parsed is a usage error.
    @Sendable static func scriptFile(_ path: String) throws -> InputFile<SessionScript> {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--script-file \(path): cannot read it") }
        do { return InputFile(path: path, value: try SessionScript(json: data)) } catch { throw ValidationError(error.description) }
    }
}
