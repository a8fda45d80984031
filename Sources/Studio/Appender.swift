import Foundation
import Primitives

/// Appends lines to a file of the run folder (the child's stdout and stderr, as the CLI would have printed them).
final class Appender: Sendable {
    private let handle: Locked<FileHandleBox?>

    private struct FileHandleBox: @unchecked Sendable { let handle: FileHandle }

    init(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = Locked(FileHandle(forWritingAtPath: path).map(FileHandleBox.init))
    }

    func append(_ line: String) {
        handle.withLock { $0?.handle.write(Data((line + "\n").utf8)) }
    }
}
