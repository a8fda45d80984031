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
