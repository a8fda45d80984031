import Foundation
import FuzzDriver
import PlayerEngine

/// A media file (seeded with MP4s cut from `media/`): written to a temporary file, opened with FFmpeg, every frame
/// decoded, then demuxed again packet by packet (`vplay probe`'s pass). Any input may be refused with a
/// `MediaError`; none may crash, hang or leak. Inputs over `MediaInput.maxBytes` are skipped, so each run stays fast.
func fuzzMedia(_ input: UnsafeRawBufferPointer) -> CInt {
    guard input.count <= MediaInput.maxBytes else { return 0 }
    let data = Data(input)
    guard (try? data.write(to: MediaInput.file)) != nil else { fatalError("cannot write \(MediaInput.file.path)") }
    let options = MediaOpenOptions(decoderThreads: 1)
    if let source = try? FFmpegMediaSource(location: MediaInput.file.path, options: options) {
        while let frame = try? source.nextFrame() { _ = frame }
        _ = source.statistics
    }
    if let source = try? FFmpegMediaSource(location: MediaInput.file.path, options: options) {
        while let packet = try? source.nextPacket() { _ = packet }
    }
    return 0
}

enum MediaInput {
    /// 64 KiB: room for a few seconds of the small seed clips, small enough for thousands of runs a minute.
    static let maxBytes = 64 * 1024
    /// One file per fuzzing process, overwritten by each input.
    static let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("vplay-fuzz-media-\(ProcessInfo.processInfo.processIdentifier).mp4")
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzMedia(UnsafeRawBufferPointer(start: data, count: size)) })
