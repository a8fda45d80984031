import Foundation

/// A real HTTP server on 127.0.0.1 serving a folder (Python's `http.server`, which the toolchain machines have), on
/// a port the OS picks. It logs every request it receives, so a test can check what arrived and how often.
public final class LoopbackFileServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let log: URL

    public init(root: String) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-http-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = LeakSanitizer.ignore(Process())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: log)
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

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Request targets received so far (path and query, as sent), in order, with their status.
    public func requests() -> [(target: String, status: Int)] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // 127.0.0.1 - - [22/Nov/2026 03:00:00] "GET /start?pos=... HTTP/1.1" 200 -
        return text.split(separator: "\n").compactMap { line in
            guard let open = line.range(of: "\"GET "), let close = line.range(of: " HTTP/1.", range: open.upperBound..<line.endIndex) else { return nil }
            let after = line[close.upperBound...].split(separator: " ")
            guard after.count >= 2, let status = Int(after[1]) else { return nil }
            return (String(line[open.upperBound..<close.lowerBound]), status)
        }
    }

    /// SIGKILL, not SIGTERM: the test runner's threads block SIGTERM and a child inherits that signal mask.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}
