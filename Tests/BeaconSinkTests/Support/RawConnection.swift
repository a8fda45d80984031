#if canImport(Glibc)
import Primitives
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A deliberately dumb blocking HTTP/1.1 client on one loopback TCP connection, for tests: it sends exactly
/// the bytes it is given (so tests can send garbage, pipeline, or omit headers) and parses answers framed
/// by `Content-Length`. Every read has a deadline, so a test never hangs on a silent server.
final class RawConnection {
    enum Failure: Error, Equatable {
        case connectFailed(Int32)
        case sendFailed(Int32)
        /// The deadline passed before a whole answer arrived.
        case timedOut
        /// The server closed the connection in an orderly way (FIN) before a whole answer arrived.
        case closed
        /// The server reset the connection (RST).
        case reset
        case malformed(String)
    }

    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: [UInt8]
    }

    private let descriptor: Int32
    private var received: [UInt8] = []

    init(port: Int, host: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw Failure.connectFailed(error)
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure.sendFailed(errno) }
            offset += sent
        }
    }

    /// Shuts the sending side (TCP half-close), as `printf … | nc` does after its last request.
    func shutdownSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// A GET (or other method) request with the headers a beacon client sends.
    static func request(_ target: String, method: String = "GET", extraHeaders: String = "") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: vplay-test/1.0\r\n\(extraHeaders)\r\n"
    }

    /// Reads one whole answer. `toHead` answers carry `Content-Length` but no body.
    func readResponse(timeout: Duration = .seconds(30), toHead: Bool = false) throws -> Response {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = headEnd() {
                let head = String(decoding: received[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(head) }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
                    headers[line[..<colon].lowercased()] = String(value)
                }
                let length = toHead ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                let total = end + 4 + length
                if received.count >= total {
                    let body = Array(received[(end + 4)..<total])
                    received.removeFirst(total)
                    return Response(status: status, headers: headers, body: body)
                }
            }
            try fill(before: deadline)
        }
    }

    /// Reads until the server closes; returns how it closed and what it sent first, or `.timedOut`.
    func readUntilClosed(timeout: Duration) -> (failure: Failure, bytes: [UInt8]) {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                try fill(before: deadline)
            } catch let failure as Failure {
                return (failure, received)
            } catch {
                return (.malformed("\(error)"), received)
            }
        }
    }

    /// Reads until the head and at least `count` bytes of the body have arrived; returns how many body bytes have
    /// (more than `count` when one read brought more). The deadline is a hang guard.
    func readBody(atLeast count: Int, timeout: Duration) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = headEnd(), received.count - (end + 4) >= count { return received.count - (end + 4) }
            try fill(before: deadline)
        }
    }

    /// Whether bytes are waiting to be read right now (a poll that does not wait).
    func hasBytesWaiting() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4)
        where received[index] == 13 && received[index + 1] == 10 && received[index + 2] == 13 && received[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Appends whatever arrives before `deadline`; throws when nothing can arrive any more.
    private func fill(before deadline: ContinuousClock.Instant) throws {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw Failure.timedOut }
        let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready == 0 { throw Failure.timedOut }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw Failure.closed }
        if count < 0 {
            if errno == ECONNRESET { throw Failure.reset }
            if errno == EINTR || errno == EAGAIN { return }
            throw Failure.malformed("recv errno \(errno)")
        }
        received.append(contentsOf: chunk[..<count])
    }
}
