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
        guard let plain = RequestURL.plainParts(of: url) else { return routedTarget(of: url).map { base + $0 } ?? url }
        guard routes(plain) else { return url }
        // The base, then the target, made as one string (a fleet routes every beacon).
        let (slash, rest) = plain.targetParts
        var routed = ""
        routed.reserveCapacity(base.utf8.count + 1 + rest.utf8.count)
        routed += base
        if slash { routed += "/" }
        routed += rest
        return routed
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
