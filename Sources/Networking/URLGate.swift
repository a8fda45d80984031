import Foundation
import Primitives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
