import Foundation
import Primitives

/// A `vplay` child: its stdout read line by line, its stderr kept, its exit status awaited, all on threads of
/// their own (blocking reads), so no thread of the server's event loops or of Swift's cooperative pool waits on it.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    /// Signalled by each reader at the end of its pipe.
    private let readersDone = DispatchSemaphore(value: 0)

    /// Starts `executable arguments` in `folder`; `onLine` gets each stdout line, `onError` each stderr line.
    init(executable: String, arguments: [String], folder: String,
         onLine: @escaping @Sendable (String) -> Void, onError: @escaping @Sendable (String) -> Void) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        Self.readLines(output.fileHandleForReading, done: readersDone, onLine)
        Self.readLines(error.fileHandleForReading, done: readersDone, onError)
    }

    /// Waits (blocking) for the child to exit and for every line it printed to be handed on: its code, or 128 + the
    /// signal that ended it.
    func wait() -> Int {
        process.waitUntilExit()
        readersDone.wait()
        readersDone.wait()
        return process.terminationReason == .uncaughtSignal ? 128 + Int(process.terminationStatus) : Int(process.terminationStatus)
    }

    func interrupt() {
        if process.isRunning { process.interrupt() }
    }

    private static func readLines(_ handle: FileHandle, done: DispatchSemaphore, _ onLine: @escaping @Sendable (String) -> Void) {
        Thread.detachNewThread {
            defer { done.signal() }
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[(newline + 1)...])
                    onLine(String(decoding: line, as: UTF8.self))
                }
            }
            if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)) }
        }
    }
}
