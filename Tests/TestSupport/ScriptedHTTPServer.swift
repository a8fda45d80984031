import Foundation

/// A hostile HTTP server on 127.0.0.1 for tests of loading tags, media and beacons. Either connection *n* gets reply
/// *n* of a script (the last one repeats), so a test can answer the first request and stall the second, or each
/// request gets the reply a route chooses for its target (path and query), so one server can play a tag endpoint, a
/// media endpoint and an Error URL recorder at once. Every request is recorded with the body bytes sent to it. Each
/// connection runs on its own thread and gets one answer (`Connection: close`); `stop()` closes everything, which also
/// ends a stalled, trickling or endless reply.
public final class ScriptedHTTPServer: @unchecked Sendable {
    public enum Reply: Sendable {
        /// `200 OK` with this body and content type, then the connection is closed.
        case body(Data, contentType: String)
        /// This status with an empty body (a 404, a 500).
        case status(Int)
        /// `302 Found` to this `Location` (absolute, or a path on this server), with an empty body.
        case redirect(to: String)
        /// Read the request, then send nothing for this long (or until the client gives up or the server stops), then
        /// close. Bounded, so a client that never gives up fails its test instead of hanging it.
        case stall(milliseconds: Int32)
        /// `200 OK` with a `Content-Length` for all of `body`, then its first `fastBytes` bytes at once, then one byte
        /// every `interval` milliseconds.
        case trickle(Data, intervalMilliseconds: Int32, fastBytes: Int = 0)
        /// `200 OK`, then `prefix` and zero bytes, 64 KiB at a time as fast as the client reads them: `length` bytes
        /// in all, announced in `Content-Length`; or, when `length` is nil, no `Content-Length` and a body that never
        /// ends (until the client goes away or the server stops). Costs the server one 64 KiB chunk of memory.
        case stream(prefix: Data, contentType: String, length: Int?)
        /// Read the request, then close with a TCP reset (`SO_LINGER` 0) without answering.
        case reset
    }

    /// A request the server received.
    public struct Request: Sendable, Equatable {
        /// The request target as sent: path and query.
        public var target: String
        /// Body bytes written to the connection so far (handed to the kernel; the client may not have read them all).
        public var bodyBytesSent: Int
    }

    public let port: Int
    private let listener: Int32
    private let choose: @Sendable (_ connection: Int, _ target: String) -> Reply
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var accepted = 0
    private var received: [Request] = []
    private var stopped = false

    /// Connection *n* gets `replies[n]`; the last reply repeats.
    public convenience init(replies: [Reply]) throws {
        precondition(!replies.isEmpty, "a script needs at least one reply")
        try self.init { connection, _ in replies[min(connection, replies.count - 1)] }
    }

    /// Each request gets the reply `route` chooses for its target (path and query, as sent).
    public convenience init(route: @escaping @Sendable (_ target: String) -> Reply) throws {
        try self.init { _, target in route(target) }
    }

    private init(choose: @escaping @Sendable (_ connection: Int, _ target: String) -> Reply) throws {
        self.choose = choose
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many connections the server has accepted so far.
    public var connections: Int { lock.withLock { accepted } }

    /// The requests received so far, in the order they arrived.
    public func requests() -> [Request] { lock.withLock { received } }

    /// Closes the listener and ends every connection (a stalled or trickling reply ends at once). Call it once the
    /// test is done (`defer`): the accepting thread keeps the server alive until then.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            // Wakes the accepting thread, which closes the listener itself: closing it here could let another test
            // reuse the descriptor number before that thread's next accept(), which would then take its connections.
            shutdown(listener, Int32(SHUT_RDWR))
            // A connection's thread removes it from `clients` (under this lock) before closing it, so these are open.
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let index: Int? = lock.withLock {
                guard !stopped else { return nil }
                clients.append(client)
                accepted += 1
                return accepted - 1
            }
            guard let index else { close(client); return }
            Thread.detachNewThread { [self] in
                serve(client, connection: index)
                lock.withLock { clients.removeAll { $0 == client } }
                close(client)
            }
        }
    }

    private func serve(_ client: Int32, connection: Int) {
        guard let target = readRequest(client) else { return }
        let slot: Int = lock.withLock {
            received.append(Request(target: target, bodyBytesSent: 0))
            return received.count - 1
        }
        func sendBody(_ data: Data) -> Bool {
            guard send(client, data) else { return false }
            lock.withLock { received[slot].bodyBytesSent += data.count }
            return true
        }
        switch choose(connection, target) {
        case let .body(body, contentType):
            guard send(client, head(200, length: body.count, contentType: contentType)) else { return }
            _ = sendBody(body)
        case let .status(code):
            _ = send(client, head(code, length: 0, contentType: nil))
        case let .redirect(location):
            _ = send(client, head(302, length: 0, contentType: nil, extra: "Location: \(location)\r\n"))
        case let .stall(milliseconds):
            // poll wakes early when the client closes or the server stops (shutdown).
            var wait = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            _ = poll(&wait, 1, milliseconds)
        case let .trickle(body, interval, fastBytes):
            guard send(client, head(200, length: body.count, contentType: "video/mp4")) else { return }
            guard sendBody(body.prefix(fastBytes)) else { return }
            for byte in body.dropFirst(fastBytes) {
                guard sendBody(Data([byte])) else { return }
                // The pause doubles as a check that the client is still there (poll wakes when it closes).
                var wait = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                if poll(&wait, 1, interval) != 0 { return }
            }
        case let .stream(prefix, contentType, length):
            guard send(client, head(200, length: length, contentType: contentType)) else { return }
            var left = length ?? .max
            let first = prefix.prefix(left)
            guard sendBody(first) else { return }
            left -= first.count
            let chunk = Data(count: 64 * 1024)
            while left > 0 {
                let part = left >= chunk.count ? chunk : chunk.prefix(left)
                guard sendBody(part) else { return }
                left -= part.count
            }
        case .reset:
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
    }

    /// A response head; no `Content-Length` when `length` is nil (the body then ends with the connection).
    private func head(_ status: Int, length: Int?, contentType: String?, extra: String = "") -> Data {
        let reason = [200: "OK", 302: "Found", 404: "Not Found", 500: "Internal Server Error"][status] ?? "Scripted"
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        if let contentType { text += "Content-Type: \(contentType)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        return Data((text + extra + "Connection: close\r\n\r\n").utf8)
    }

    /// Reads up to the blank line that ends the request head and returns its target; nil if the client went away
    /// first.
    private func readRequest(_ client: Int32) -> String? {
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes.append(contentsOf: buffer[0..<count])
        }
        let requestLine = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : ""
    }

    private func send(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
