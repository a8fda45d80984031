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
        // A plain URL read as bytes, and the routed one made from the base's and the target's bytes at once (a fleet
        // routes every beacon): nil when it is not plain, .some(nil) when it is not routed.
        let routed: String?? = RequestURL.withPlainBytes(of: url) { bytes, host, targetStart in
            guard scope == .all || Self.isLoopback(UnsafeBufferPointer(rebasing: bytes[host])) else { return nil }
            let target = UnsafeBufferPointer(rebasing: bytes[targetStart...])
            let slash = target.first != UInt8(ascii: "/")
            var base = base
            return base.withUTF8 { base in
                String(unsafeUninitializedCapacity: base.count + (slash ? 1 : 0) + target.count) { buffer in
                    var end = buffer.initialize(fromContentsOf: base)
                    if slash { buffer[end] = UInt8(ascii: "/"); end += 1 }
                    return buffer[end...].initialize(fromContentsOf: target)
                }
            }
        }
        switch routed {
        case let .some(.some(routed)): return routed
        case .some(.none): return url
        case .none: return routedTarget(of: url).map { base + $0 } ?? url
        }
    }

    /// Whether a plain URL's host bytes name this machine (`isLoopback`; a plain host has no brackets).
    private static func isLoopback(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// The request target `url` has at the sink when it is routed there, else nil (one read of the URL).
    public func routedTarget(of url: String) -> String? {
        if let plain = RequestURL.plainParts(of: url) { return routes(plain) ? plain.target : nil }
        guard routes(url) else { return nil }
        return Self.target(of: url)
    }

    /// Whether a plain URL goes to the sink.
    private func routes(_ plain: RequestURL.PlainParts) -> Bool {
        scope == .all || Self.isLoopback(plain.host.lowercased())
    }

    /// Whether `url` goes to the sink: an http(s) URL in `scope`.
    public func routes(_ url: String) -> Bool {
        if let plain = RequestURL.plainParts(of: url) { return routes(plain) }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return false }
        switch scope {
        case .all: return true
        case .loopback:
            return Self.isLoopback(components.host?.lowercased() ?? "")
        }
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
    }

    /// Path and query exactly as they will be sent (percent-encoding kept).
    public static func target(of url: String) -> String? {
        if let plain = RequestURL.plainParts(of: url) { return plain.target }
        guard let components = URLComponents(string: url) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
