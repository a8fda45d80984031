import Foundation
import Primitives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
