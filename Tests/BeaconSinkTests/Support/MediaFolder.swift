#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A temporary folder for `--media` tests, with an outside sibling to escape to; removed on deinit.
final class MediaFolder {
    /// The folder holding both: `served/` (given to the sink) and `outside/`.
    let base: URL
    let served: URL
    let outside: URL

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-media-\(UUID().uuidString)")
        served = base.appendingPathComponent("served")
        outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: base)
    }

    /// Writes `bytes` to `relative` under `served/` (or `outside/`), creating folders; returns the bytes.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8], outside: Bool = false) throws -> [UInt8] {
        let url = (outside ? self.outside : served).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return bytes
    }

    /// `count` bytes that differ from offset to offset, so a misplaced range shows.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }
}
