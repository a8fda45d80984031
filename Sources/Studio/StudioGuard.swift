import Foundation

/// Who may talk to the studio: requests whose `Host` names the studio itself (a DNS-rebinding page's requests carry
/// its own name: refused), whose `Origin`, when sent, is the studio's own page, and, for anything that changes state
/// (every method but GET and HEAD), the per-launch token the page was served with.
public struct StudioGuard: Sendable {
    /// The token state-changing requests carry in `X-Studio-Token`.
    public let token: String
    /// `host:port` forms the studio answers to, lowercased.
    public let authorities: Set<String>

    public init(token: String, host: String, port: Int) {
        self.token = token
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        names.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        authorities = Set(names.map { "\($0.lowercased()):\(port)" })
    }

    /// A fresh 256-bit token, hex.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    public enum Verdict: Equatable, Sendable {
        case allowed
        case refused(String)
    }

    public func check(method: String, host: String?, origin: String?, token sent: String?) -> Verdict {
        guard let host, authorities.contains(host.lowercased()) else {
            return .refused("the Host \(host.map { "'\($0)'" } ?? "(none)") is not the studio's own (DNS rebinding is refused)")
        }
        if let origin {
            let lowered = origin.lowercased()
            guard lowered.hasPrefix("http://"), authorities.contains(String(lowered.dropFirst("http://".count))) else {
                return .refused("the Origin '\(origin)' is not the studio's own page")
            }
        }
        if method != "GET" && method != "HEAD" {
            guard let sent, Self.same(sent, token) else { return .refused("a \(method) request needs the studio's token (X-Studio-Token)") }
        }
        return .allowed
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
