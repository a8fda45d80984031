import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a local file for the fetchers, with a size cap so a huge or special file cannot exhaust memory, and without
/// blocking for ever: the file is opened non-blocking (opening a FIFO with no writer would otherwise wait until one
/// comes), and a pipe or FIFO that has no data yet is waited on in short slices that check for cancellation, so the
/// resolver's timeout (which cancels the fetch) and a signal (which cancels the session) end the wait.
enum LocalFileReader {
    /// How long one wait for a pipe's data lasts before cancellation is checked again.
    static let slice: Int32 = 100  // ms

    static func read(_ fileURL: URL, maxBytes: Int) throws(VASTError) -> Data {
        let path = fileURL.path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw VASTError(.wrapperTimeout, "cannot open \(path) (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw VASTError(.wrapperTimeout, "cannot read \(path) (\(String(cString: strerror(errno))))") }
        if status.st_mode & S_IFMT == S_IFDIR { throw VASTError(.wrapperTimeout, "cannot read \(path): it is a directory") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
                if data.count > maxBytes {
                    // The parser's size cap (`ParserLimits.maxBytes`): exceeding it is error 100, wherever it is found.
                    throw VASTError(.xmlParse, "\(path) is larger than \(maxBytes) bytes")
                }
                continue
            }
            if count == 0 { return data }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                if Task.isCancelled { throw VASTError(.wrapperTimeout, "\(path): no data before the read was stopped (a pipe nobody writes?)") }
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, slice)
            default:
                throw VASTError(.wrapperTimeout, "cannot read \(path) (\(String(cString: strerror(errno))))")
            }
        }
    }
}
