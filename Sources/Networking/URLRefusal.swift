import Foundation

/// Why a URL is not requested.
public enum URLRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLong(Int)
    case forbiddenCharacter(UInt32)
    case notAbsolute
    case schemeNotAllowed(String)
    case noHost
    case credentials
    case badHost(String)
    case badPort(String)
    /// Foundation reads the host or port differently from the text (the client would connect elsewhere).
    case ambiguous
    /// `--deny-private-networks` / `--deny-loopback`: the host is, or resolves to, such an address.
    case deniedAddress(host: String, address: String, range: AddressRange)
    /// `--deny-private-networks`: the host's name could not be resolved to check it.
    case unresolvable(host: String)

    public var description: String {
        switch self {
        case let .tooLong(bytes): "invalid URL: \(bytes) bytes long (at most \(RequestURL.maxLength))"
        case let .forbiddenCharacter(value): "invalid URL: it contains character U+\(String(format: "%04X", value))"
        case .notAbsolute: "invalid URL: not an absolute URL"
        case let .schemeNotAllowed(scheme): "invalid URL: scheme \(scheme): is not requested (http and https only)"
        case .noHost: "invalid URL: no host"
        case .credentials: "invalid URL: it carries credentials (user@host)"
        case let .badHost(host): "invalid URL: host \(host) is not a host name or IP address"
        case let .badPort(port): "invalid URL: port \(port) is not in 1…65535"
        case .ambiguous: "invalid URL: its host or port is ambiguous"
        case let .deniedAddress(host, address, range):
            host == address ? "refused: \(address) is \(range.text)" : "refused: \(host) resolves to \(address), \(range.text)"
        case let .unresolvable(host): "refused: \(host) could not be resolved to check its address"
        }
    }

    /// Stable, for programs: `invalidURL` or `addressDenied`.
    public var code: String {
        switch self {
        case .deniedAddress, .unresolvable: "addressDenied"
        default: "invalidURL"
        }
    }
}
