import Foundation
import Primitives

/// Follows a file the child appends JSON lines to (a fleet's `--progress`), every 100 ms until stopped, then once
/// more to the end.
final class ProgressTail: Sendable {
    private let running = Locked(true)
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String, onLine: @escaping @Sendable (String) -> Void) {
        Thread.detachNewThread { [running, done] in
            var offset: UInt64 = 0
            var pending = Data()
            func drain() {
                guard let handle = FileHandle(forReadingAtPath: path) else { return }
                defer { try? handle.close() }
                try? handle.seek(toOffset: offset)
                let data = handle.readDataToEndOfFile()
                offset += UInt64(data.count)
                pending.append(data)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    if !line.isEmpty { onLine(line) }
                }
            }
            while running.withLock({ $0 }) {
                drain()
                Thread.sleep(forTimeInterval: 0.1)
            }
            drain()
            done.signal()
        }
    }

    /// Stops following once the file has been read to its end.
    func stop() {
        running.withLock { $0 = false }
        done.wait()
    }
}
