import Foundation
import Primitives

/// Which beacons go to the embedded sink, and the request target (path and query, as sent) a hit will show.
public struct SinkRouting: Sendable {
    public enum Scope: String, Sendable, CaseIterable {
        /// Only URLs whose host is this machine (127.0.0.1, localhost, [::1]), whatever their port: the demo tag's.
        case loopback
        /// Every http(s) URL, for replaying a real tag offline.
        case all
    }

    public let scope: Scope
    /// `http://127.0.0.1:PORT` of the running sink.
    public let base: String

    /// The URL to request instead of `url`, or `url` itself when it is not routed.
    public func route(_ url: String) -> String {
        if let plain = RequestURL.plainParts(of: url) {
            guard scope == .all || Self.isLoopback(plain.host.lowercased()) else { return url }
            // The base, then the target (`RequestURL.target`: at least `/`), made as one string.
            let path = plain.pathAndQuery
            var routed = ""
            routed.reserveCapacity(base.utf8.count + 1 + path.utf8.count)
            routed += base
            if path.utf8.first != UInt8(ascii: "/") { routed += "/" }
            routed += path
            return routed
        }
        return routedTarget(of: url).map { base + $0 } ?? url
    }

    /// The request target `url` has at the sink when it is routed there, else nil (one read of the URL).
    public func routedTarget(of url: String) -> String? {
        if let plain = RequestURL.plainParts(of: url) {
            return scope == .all || Self.isLoopback(plain.host.lowercased()) ? plain.target : nil
        }
        guard routes(url) else { return nil }
        return Self.target(of: url)
    }

    public func routes(_ url: String) -> Bool {
        if let plain = RequestURL.plainParts(of: url) {
            return scope == .all || Self.isLoopback(plain.host.lowercased())
        }
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
