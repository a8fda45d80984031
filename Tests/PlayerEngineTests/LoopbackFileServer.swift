import Foundation

/// A real HTTP server on 127.0.0.1 serving a folder (Python's `http.server`, which every machine with the toolchain
/// here has), on a port the OS picks. Stopped with `stop()`.
final class LoopbackFileServer {
    let port: Int
    private let process: Process

    init(root: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = ""
        let deadline = Date().addingTimeInterval(10)
        while !seen.contains(")"), Date() < deadline {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        guard let range = seen.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(seen[range].dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "http.server did not start: \(seen)"])
        }
        self.port = port
    }

    /// SIGKILL, not SIGTERM: the test runner's threads block SIGTERM and a child inherits that signal mask.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
