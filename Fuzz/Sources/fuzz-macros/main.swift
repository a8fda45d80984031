import Foundation
import FuzzDriver
import TrackingBeacons

/// A tracking URL template (the first line) expanded with the values a session fills in plus configured
/// `NAME=value` lines that follow (as `--macro` gives them); the last line is also read as a `--now` time whose UTC
/// offset goes into `[TIMESTAMP]`. Templates come from ad servers; none may crash or hang the expander.
func fuzzMacros(_ input: UnsafeRawBufferPointer) -> CInt {
    let text = String(decoding: input, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let template = String(lines.first ?? "")
    var extra: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let equals = line.firstIndex(of: "=") else { continue }
        extra[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    let offset = MacroFormat.utcOffsetMinutes(ofISO8601: String(lines.last ?? "")) ?? 0
    let context = MacroContext(
        adPlayhead: .milliseconds(input.count * 37), assetURI: "https://cdn.invalid/a b,c.mp4", errorCode: 405, reason: 2,
        timestampMilliseconds: 1_795_000_000_000, timeZoneOffsetMinutes: offset, cacheBuster: "12345678",
        adServingId: "serving", universalAdIds: ["ad-id.org VPLAY0000001", template], adType: "video",
        podSequence: 1, adCount: 1, transactionID: "6F9619FF-8B86-D011-B42D-00C04FC964FF",
        playerState: ["muted", "fullscreen"], extra: extra)
    let expander = MacroExpander()
    _ = expander.expand(template, values: context.values)
    _ = expander.expand(template, values: extra)
    _ = MacroExpander.percentEncode(template)
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzMacros(UnsafeRawBufferPointer(start: data, count: size)) })
