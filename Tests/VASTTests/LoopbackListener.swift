import Foundation

/// A TCP listener on 127.0.0.1 that only counts connections, to prove that nothing tried to fetch something.
final class LoopbackListener {
    let port: Int
    private let socket: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connections waiting to be accepted (each is accepted and closed).
    func connectionsAccepted() -> Int {
        var count = 0
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 { return count }
            Glibc.close(client)
            count += 1
        }
    }

    func close() { Glibc.close(socket) }
}
