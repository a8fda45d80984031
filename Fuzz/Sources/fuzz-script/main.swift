import Foundation
import FuzzDriver
import PlayerEngine

/// A session script as `--script` text and as a `--script-file` JSON document: either parses or is refused with a
/// `SessionScript.ParseError`; neither may crash or hang.
func fuzzScript(_ input: UnsafeRawBufferPointer) -> CInt {
    let data = Data(input)
    _ = try? SessionScript(parsing: String(decoding: data, as: UTF8.self))
    _ = try? SessionScript(json: data)
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzScript(UnsafeRawBufferPointer(start: data, count: size)) })
