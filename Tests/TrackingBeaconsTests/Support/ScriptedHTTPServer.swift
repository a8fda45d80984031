#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A small real HTTP/1.1 server on 127.0.0.1 for transport tests: each request target gets the answer a script
/// chooses — a response, a redirect, headers and then a body that never finishes, or a TCP reset — and every request
/// is recorded with its User-Agent. Blocking sockets, one thread per connection; keep-alive is honoured, so pooled
/// clients behave as they do against a real server.
final class ScriptedHTTPServer: Sendable {
    enum Answer: Sendable {
        /// A complete response.
        case respond(status: Int, headers: [HeaderPair], body: [UInt8])
        /// 302 with this `Location` and an empty body.
        case redirect(to: String)
        /// 200 with `Content-Length: promised`, the first bytes of the body, then silence until the server stops
        /// or `closeAfter` passes (then an orderly close, leaving the body short).
        case stall(promised: Int, sent: [UInt8], closeAfter: Duration)
        /// Close with a TCP reset (SO_LINGER 0) after reading the request, without answering.
        case reset
    }

    struct HeaderPair: Sendable {
        var name: String
        var value: String
        init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    struct Hit: Sendable, Equatable {
        var target: String
        var userAgent: String?
    }

    let port: Int
    private let listener: Int32
    private let log = Mutex<[Hit]>([])
    private let stopped = Atomic<Bool>(false)
    private let script: @Sendable (String) -> Answer

    init(script: @escaping @Sendable (_ target: String) -> Answer) throws {
        self.script = script
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        listener = descriptor
        port = Self.localPort(of: descriptor)
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Requests received so far, in order.
    func hits() -> [Hit] { log.withLock { $0 } }

    /// Stops accepting. The listener is shut down here (waking the accept loop) but closed by the accept loop
    /// itself: closing it from here would free its descriptor number while the loop may still poll or accept on
    /// it, and the next test's server, given the same number, would have its connections taken and reset.
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    /// A loopback port nothing listens on: bound, read, and closed again.
    static func closedPort() -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return localPort(of: probe)
    }

    private static func localPort(of descriptor: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.load(ordering: .relaxed) {
            guard wait(for: listener, milliseconds: 50) else { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            let server = self
            Thread.detachNewThread { server.serve(connection) }
        }
    }

    /// True when `descriptor` is readable within the wait.
    private func wait(for descriptor: Int32, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        defer { close(connection) }
        while !stopped.load(ordering: .relaxed) {
            guard let (target, userAgent) = readRequest(connection, buffer: &buffer) else { return }
            log.withLock { $0.append(Hit(target: target, userAgent: userAgent)) }
            switch script(target) {
            case let .respond(status, headers, body):
                var head = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.count)\r\n"
                for header in headers { head += "\(header.name): \(header.value)\r\n" }
                guard send(connection, Array((head + "\r\n").utf8) + body) else { return }
            case let .redirect(location):
                guard send(connection, Array("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n".utf8)) else { return }
            case let .stall(promised, sent, closeAfter):
                let head = "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: \(promised)\r\n\r\n"
                guard send(connection, Array(head.utf8) + sent) else { return }
                let end = ContinuousClock.now + closeAfter
                while !stopped.load(ordering: .relaxed), ContinuousClock.now < end { usleep(10_000) }
                return
            case .reset:
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
                return
            }
        }
    }

    /// Reads one request head (requests have no body here); nil when the client closed or the server stops.
    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> (target: String, userAgent: String?)? {
        while true {
            if let end = Self.headEnd(buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                let lines = head.components(separatedBy: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                let userAgent = lines.dropFirst().first { $0.lowercased().hasPrefix("user-agent:") }
                    .map { String($0.dropFirst("user-agent:".count)).trimmingCharacters(in: .whitespaces) }
                return (String(parts[1]), userAgent)
            }
            if stopped.load(ordering: .relaxed) { return nil }
            guard wait(for: connection, milliseconds: 50) else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer += chunk[..<count]
        }
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
