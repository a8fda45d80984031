import Foundation

/// A hostile HTTP server on 127.0.0.1 for tests of media loading: connection *n* gets reply *n* of a script (the
/// last one repeats), so a test can answer the first request and stall the second, or trickle a body byte by byte.
/// Each connection runs on its own thread; `stop()` closes everything, which also ends a stalled reply.
public final class ScriptedHTTPServer: @unchecked Sendable {
    public enum Reply: Sendable {
        /// `200 OK` with this body and content type, then the connection is closed.
        case body(Data, contentType: String)
        /// Read the request, then send nothing for this long (or until the client gives up or the server stops), then
        /// close. Bounded, so a client that never gives up fails its test instead of hanging it.
        case stall(milliseconds: Int32)
        /// `200 OK` with a `Content-Length` for all of `body`, then one byte every `interval` milliseconds.
        case trickle(Data, intervalMilliseconds: Int32)
    }

    public let port: Int
    private let listener: Int32
    private let replies: [Reply]
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var accepted = 0
    private var stopped = false

    public init(replies: [Reply]) throws {
        precondition(!replies.isEmpty, "a script needs at least one reply")
        self.replies = replies
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

    /// How many connections the server has accepted so far.
    public var connections: Int { lock.withLock { accepted } }

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
            let reply = replies[min(index, replies.count - 1)]
            Thread.detachNewThread { [self] in
                serve(client, reply)
                lock.withLock { clients.removeAll { $0 == client } }
                close(client)
            }
        }
    }

    private func serve(_ client: Int32, _ reply: Reply) {
        guard readRequest(client) else { return }
        switch reply {
        case let .body(body, contentType):
            _ = send(client, header(length: body.count, contentType: contentType) + body)
        case let .stall(milliseconds):
            // poll wakes early when the client closes or the server stops (shutdown).
            var wait = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            _ = poll(&wait, 1, milliseconds)
        case let .trickle(body, interval):
            guard send(client, header(length: body.count, contentType: "video/mp4")) else { return }
            for byte in body {
                guard send(client, Data([byte])) else { return }
                // The pause doubles as a check that the client is still there (poll wakes when it closes).
                var wait = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                if poll(&wait, 1, interval) != 0 { return }
            }
        }
    }

    private func header(length: Int, contentType: String) -> Data {
        Data("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
    }

    /// Reads up to the blank line that ends the request head; false if the client went away first.
    private func readRequest(_ client: Int32) -> Bool {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
        }
        return true
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
