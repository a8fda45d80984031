import Foundation
import FuzzDriver
@_spi(Fuzzing) import PlayerEngine

/// One DASH manifest (MPD), read as a remote one and as a local one: the hardened XML reader, the period and
/// representation checks and every segment address (`SegmentTemplate` with `$Number$`/`$Time$` and a
/// `SegmentTimeline` or a `duration`, `SegmentList`, `BaseURL`s at each level). Any input may be refused with a
/// `MediaError`; none may crash, hang or leak, and every segment listed has a finite duration ≥ 0.
func fuzzMPD(_ input: UnsafeRawBufferPointer) -> CInt {
    let text = String(decoding: input, as: UTF8.self)
    _ = DASHManifestFuzzing.read(text, base: "https://cdn.fuzz.invalid/ads/ad.mpd")
    _ = DASHManifestFuzzing.read(text, base: "/tmp/fuzz-mpd/ad.mpd")
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzMPD(UnsafeRawBufferPointer(start: data, count: size)) })
