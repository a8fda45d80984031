import Foundation
import FuzzDriver
import PlayerEngine

/// A session script as `--script` text and as a `--script-file` JSON document, and a simulated network as
/// `--network` text and as a `--network-trace` JSON document: each parses or is refused with its `ParseError`;
/// none may crash or hang. A profile that parses is then asked when bytes arrive and how many have by when (the
/// arithmetic a session and the real-time throttle run), at sizes and times from tiny to absurd.
func fuzzScript(_ input: UnsafeRawBufferPointer) -> CInt {
    let data = Data(input)
    let text = String(decoding: data, as: UTF8.self)
    _ = try? SessionScript(parsing: text)
    _ = try? SessionScript(json: data)
    for profile in [try? NetworkProfile(parsing: text), try? NetworkProfile(trace: data, name: "fuzz")].compactMap({ $0 }) {
        for bytes: Int64 in [0, 1, 65_536, 1 << 32, Int64.max / 16] { _ = profile.arrival(ofBytes: bytes) }
        for time: Duration in [.zero, .milliseconds(1), .seconds(8), .seconds(86_400), NetworkProfile.horizon] { _ = profile.bytes(arrivedBy: time) }
    }
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzScript(UnsafeRawBufferPointer(start: data, count: size)) })
