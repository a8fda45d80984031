import Primitives
import Foundation

/// Appends each beacon record to a JSON Lines file as it happens, flushed line by line, so the log survives an error
/// exit, an interruption or a crash. Keys are sorted, so two runs with the same `--seed` and `--now` against the same
/// answers write the same bytes (apart from wall times and latencies).
public final class BeaconLogWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = Locked(())
    private let encoder: JSONEncoder

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    public func append(_ record: BeaconRecord) {
        guard var line = try? encoder.encode(record) else { return }
        line.append(0x0A)
        lock.withLock { _ in handle.write(line) }
    }

    public func close() {
        lock.withLock { _ in
            try? handle.synchronize()
            try? handle.close()
        }
    }
}
