import Foundation
import FuzzDriver
import VAST

/// One VAST response: parse it, then do what `vplay inspect` and a session do with a parsed document that needs no
/// network (media file selection, skip time, JSON encoding). Any input may be refused with a `VASTError`; none may
/// crash, hang or leak.
func fuzzVAST(_ input: UnsafeRawBufferPointer) -> CInt {
    let data = Data(input)
    guard let document = try? VASTParser().parse(data, tagURL: "https://fuzz.invalid/tag.xml") else { return 0 }
    for ad in document.adsInPlayOrder {
        guard let linear = ad.inLine?.linearCreative?.linear else { continue }
        _ = linear.skipTime
        _ = try? MediaFileSelector.select(from: linear.mediaFiles)
        _ = try? MediaFileSelector.select(
            from: linear.mediaFiles, criteria: MediaSelectionCriteria(targetBitrateKbps: 1500, screenWidth: 390, screenHeight: 844))
        _ = try? MediaFileSelector.select(from: linear.mediaFiles, criteria: MediaSelectionCriteria(forcedFile: "2"))
        _ = try? MediaFileSelector.select(from: linear.mediaFiles, criteria: MediaSelectionCriteria(adcashQuality: .mid))
    }
    _ = try? JSONEncoder().encode(document)
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzVAST(UnsafeRawBufferPointer(start: data, count: size)) })
