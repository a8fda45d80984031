import Foundation
import Primitives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, parsed from its text (`inet_pton`), and which kind of network it belongs to.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 or 16 bytes.
    public let bytes: [UInt8]

    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// The host as `inet_aton(3)` reads it, which is how resolvers, browsers (WHATWG URL) and curl read a host made
    /// of numbers: `0` is 0.0.0.0, `2130706433` and `0x7f.1` are 127.0.0.1. Only hosts of digits, `x` and dots (at
    /// least one digit) are tried; anything else is a name.
    public init?(numericIPv4 text: String) {
        guard text.utf8.contains(where: { (48...57).contains($0) }),
              text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0 | 0x20) || $0 | 0x20 == 120 || $0 == 46 }) else { return nil }
        var v4 = in_addr()
        guard inet_aton(text, &v4) != 0 else { return nil }
        bytes = withUnsafeBytes(of: &v4) { Array($0) }
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The special range this address is in, or nil for a public address.
    public var range: AddressRange? {
        if bytes.count == 4 { return Self.rangeV4(bytes) }
        // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address inside.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Self.rangeV4(Array(bytes[12...])) }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return Self.rangeV4(Array(bytes[12...])) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return bytes[15] == 1 ? .loopback : .unspecified }
        // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): the IPv4 address inside, else reserved.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return Self.rangeV4(Array(bytes[12...])) ?? .reserved }
        if bytes[0] & 0xFE == 0xFC { return .privateNetwork }  // fc00::/7 unique local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return .linkLocal }  // fe80::/10
        if bytes[0] == 0xFF { return .multicast }
        return nil
    }

    private static func rangeV4(_ b: [UInt8]) -> AddressRange? {
        switch (b[0], b[1]) {
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168): return .privateNetwork
        case (100, 64...127): return .privateNetwork  // shared address space (carrier-grade NAT), RFC 6598
        case (169, 254): return .linkLocal  // includes 169.254.169.254, the cloud metadata service
        case (0, _): return .unspecified
        case (224...239, _): return .multicast
        case (240...255, _): return .reserved
        default: return nil
        }
    }
}

/// The kinds of address `--deny-private-networks` refuses (and `--deny-loopback` adds loopback to).
public enum AddressRange: String, Sendable, Hashable {
    case loopback, privateNetwork, linkLocal, unspecified, multicast, reserved

    public var text: String {
        switch self {
        case .loopback: "a loopback address"
        case .privateNetwork: "a private network address"
        case .linkLocal: "a link-local address (169.254.0.0/16 holds the cloud metadata service)"
        case .unspecified: "an unspecified address"
        case .multicast: "a multicast address"
        case .reserved: "a reserved address"
        }
    }
}

/// Which destinations vplay may request: by default every host; with `denyPrivate`, none whose address is private,
/// link-local, unique-local, unspecified, multicast or reserved (loopback stays allowed unless `denyLoopback`).
/// An unspecified address (`0.0.0.0`, `::`) connects to this machine, so `denyLoopback` refuses it too.
public struct AddressPolicy: Sendable, Hashable {
    public var denyPrivate: Bool
    public var denyLoopback: Bool
    /// Origins the operator named on the command line (`--collector`): never refused, since the policy guards
    /// against what a tag names, not against the operator's own choices. Exact origins (scheme, host, port), and
    /// given only to the gate of the requests sent there (the beacons routed to the collector), never to the tag's
    /// wrappers, media or segments.
    public var trustedOrigins: Set<Origin> = []

    /// A URL's scheme, host (lower case) and port.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        public var scheme: String
        public var host: String
        public var port: Int

        public init(_ url: RequestURL) { (scheme, host, port) = (url.scheme, url.host, url.port) }

        /// The origin of an absolute http(s) URL; nil for anything else.
        public init?(_ text: String) {
            guard let url = try? RequestURL.check(text) else { return nil }
            self.init(url)
        }

        public var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    public init(denyPrivate: Bool = false, denyLoopback: Bool = false) {
        self.denyPrivate = denyPrivate
        self.denyLoopback = denyLoopback
    }

    public static let open = AddressPolicy()

    /// Whether any check is needed (else hosts are not even resolved).
    public var restricts: Bool { denyPrivate || denyLoopback }

    /// Whether an address in `range` is refused.
    public func denies(_ range: AddressRange?) -> Bool {
        switch range {
        case nil: false
        case .loopback: denyLoopback
        // 0.0.0.0 and :: reach this machine's own services: refused by either flag.
        case .unspecified: denyLoopback || denyPrivate
        default: denyPrivate
        }
    }

    /// Checks `url`'s host: an IP literal directly, a name by every address `resolve` gives it (one refused address
    /// refuses the host: the client may connect to any of them).
    public func check(_ url: RequestURL, resolve: (String) -> [IPAddress]?) throws(URLRefusal) {
        guard restricts, trustedOrigins.isEmpty || !trustedOrigins.contains(Origin(url)) else { return }
        let addresses: [IPAddress]
        if let literal = IPAddress(url.host) ?? IPAddress(numericIPv4: url.host) {
            addresses = [literal]
        } else if url.host == "localhost" || url.host.hasSuffix(".localhost") {
            addresses = [IPAddress("127.0.0.1")!]  // RFC 6761: always loopback, whatever a resolver says
        } else {
            guard let resolved = resolve(url.host), !resolved.isEmpty else {
                guard denyPrivate else { return }  // only loopback is denied: a name that fails will fail to connect
                throw .unresolvable(host: url.host)
            }
            addresses = resolved
        }
        for address in addresses where denies(address.range) {
            throw .deniedAddress(host: url.host, address: address.description, range: address.range!)
        }
    }

    /// The system resolver (`getaddrinfo`, blocking): every address of `host`, or nil when it does not resolve.
    public static func systemResolve(_ host: String) -> [IPAddress]? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socket = current.pointee.ai_addr {
                if current.pointee.ai_family == AF_INET {
                    let address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: address) { Array($0) })!)
                } else if current.pointee.ai_family == AF_INET6 {
                    let address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: address) { Array($0) })!)
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}

/// The one check every URL passes before vplay requests it: `RequestURL.check`, then the address policy on its
/// host. Names are resolved (only when the policy restricts anything) once per host and remembered for the run.
///
/// A limit stated plainly: the HTTP client (and FFmpeg, for media) resolves the name again when it connects, so a
/// name whose DNS answer changes between the two lookups (DNS rebinding) can still reach a denied address. IP
/// literals, `localhost` and names with stable answers are refused reliably.
public final class URLGate: Sendable {
    public let policy: AddressPolicy
    private let resolve: @Sendable (String) -> [IPAddress]?
    private let resolved = Locked<[String: [IPAddress]]>([:])

    /// - Parameter resolve: a host name's addresses, nil when it does not resolve (`AddressPolicy.systemResolve`,
    ///   or a table in tests).
    public init(policy: AddressPolicy, resolve: @escaping @Sendable (String) -> [IPAddress]?) {
        self.policy = policy
        self.resolve = resolve
    }

    /// Checks the URL only (no host policy, nothing resolved).
    public static let open = URLGate(policy: .open, resolve: { _ in nil })

    public func check(_ text: String) throws(URLRefusal) -> RequestURL {
        let url = try RequestURL.check(text)
        try admit(url)
        return url
    }

    public func check(_ text: String, relativeTo base: URL) throws(URLRefusal) -> RequestURL {
        let url = try RequestURL.check(text, relativeTo: base)
        try admit(url)
        return url
    }

    /// Applies the address policy to an already checked URL.
    public func admit(_ url: RequestURL) throws(URLRefusal) {
        guard policy.restricts else { return }
        try policy.check(url) { host in
            if let known = resolved.withLock({ $0[host] }) { return known }
            guard let addresses = resolve(host) else { return nil }
            resolved.withLock { $0[host] = addresses }
            return addresses
        }
    }
}
