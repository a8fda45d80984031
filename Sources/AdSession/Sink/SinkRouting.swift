import Foundation
import Networking

/// Which beacons go to the embedded sink, and the request target (path and query, as sent) a hit will show.
public struct SinkRouting: Sendable {
    /// Which tracking URLs are sent to the embedded sink (`--sink`, `--sink-all`).
    public enum Scope: String, Sendable, CaseIterable {
        /// Only URLs whose host is this machine (127.0.0.1, localhost, [::1]), whatever their port: the demo tag's.
        case loopback
        /// Every http(s) URL, for replaying a real tag offline.
        case all
    }

    /// Which URLs are routed to the sink.
    public let scope: Scope
    /// `http://127.0.0.1:PORT` of the running sink.
    public let base: String

    /// The URL to request instead of `url`, or `url` itself when it is not routed.
    public func route(_ url: String) -> String {
        // A plain URL: the routed one made from the base's and the target's bytes at once (a fleet routes every
        // beacon). Anything else: Foundation reads it.
        let routed: String?? = URLScanner.withScan(of: url) { bytes, scan in
            guard case let .plain(_, host, _, target) = scan else { return nil }
            guard routes(host: UnsafeBufferPointer(rebasing: bytes[host])) else { return .some(nil) }
            let rest = UnsafeBufferPointer(rebasing: bytes[target])
            let slash = rest.first != UInt8(ascii: "/")
            var base = base
            return base.withUTF8 { base in
                String(unsafeUninitializedCapacity: base.count + (slash ? 1 : 0) + rest.count) { buffer in
                    var end = buffer.initialize(fromContentsOf: base)
                    if slash { buffer[end] = UInt8(ascii: "/"); end += 1 }
                    return buffer[end...].initialize(fromContentsOf: rest)
                }
            }
        }
        switch routed {
        case let .some(.some(routed)): return routed
        case .some(.none): return url
        case .none: return Self.foundationParts(of: url).flatMap { routes(host: $0.host) ? base + $0.target : nil } ?? url
        }
    }

    /// Whether a plain URL with these host bytes goes to the sink (a plain host has no brackets).
    private func routes(host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard scope == .loopback else { return true }
        func equals(_ name: StaticString) -> Bool {
            guard host.count == name.utf8CodeUnitCount else { return false }
            for offset in 0..<host.count {
                let byte = host[offset]
                guard ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == name.utf8Start[offset] else { return false }
            }
            return true
        }
        return equals("127.0.0.1") || equals("localhost")
    }

    /// Whether a URL with this host (as Foundation reads it) goes to the sink.
    private func routes(host: String) -> Bool {
        scope == .all || Self.isLoopback(host.lowercased())
    }

    /// The request target `url` has at the sink when it is routed there, else nil (one read of the URL).
    public func routedTarget(of url: String) -> String? {
        let plain: String?? = URLScanner.withScan(of: url) { bytes, scan in
            guard case let .plain(_, host, _, target) = scan else { return nil }
            return routes(host: UnsafeBufferPointer(rebasing: bytes[host])) ? Self.target(bytes, target) : .some(nil)
        }
        if let plain { return plain }
        return Self.foundationParts(of: url).flatMap { routes(host: $0.host) ? $0.target : nil }
    }

    /// Whether `url` goes to the sink: an http(s) URL in `scope`.
    public func routes(_ url: String) -> Bool {
        let plain: Bool? = URLScanner.withScan(of: url) { bytes, scan in
            guard case let .plain(_, host, _, _) = scan else { return nil }
            return routes(host: UnsafeBufferPointer(rebasing: bytes[host]))
        }
        return plain ?? Self.foundationParts(of: url).map { routes(host: $0.host) } ?? false
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
    }

    /// A plain URL's request target from its bytes: at least `/`, made in one allocation.
    private static func target(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let rest = UnsafeBufferPointer(rebasing: bytes[range])
        let slash = rest.first != UInt8(ascii: "/")
        return String(unsafeUninitializedCapacity: rest.count + (slash ? 1 : 0)) { buffer in
            var end = 0
            if slash { buffer[0] = UInt8(ascii: "/"); end = 1 }
            return buffer[end...].initialize(fromContentsOf: rest)
        }
    }

    /// Host and request target as Foundation reads an http(s) URL that is not plain; nil for anything else.
    private static func foundationParts(of url: String) -> (host: String, target: String)? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return (components.host ?? "", components.percentEncodedQuery.map { path + "?" + $0 } ?? path)
    }

    /// Path and query exactly as they will be sent (percent-encoding kept).
    public static func target(of url: String) -> String? {
        let plain: String? = URLScanner.withScan(of: url) { bytes, scan in
            guard case let .plain(_, _, _, target) = scan else { return nil }
            return Self.target(bytes, target)
        }
        if let plain { return plain }
        guard let components = URLComponents(string: url) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
