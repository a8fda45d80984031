import Foundation
import Primitives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

