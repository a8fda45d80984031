/// The parts of a received request head that a hit records; built by the connection handler.
struct SinkRequest: Sendable {
    var connection: Int
    var method: String
    var target: String
    var userAgent: String?
    var host: String?
    /// The `Range` header, if sent.
    var range: String? = nil
    /// The `X-Device-*` fields and `X-Forwarded-For`, when any was sent.
    var device: SinkHit.DeviceHeaders? = nil

    /// ``target`` split at its first `?` into path and query (nil when there is no `?`), not decoded.
    var pathAndQuery: (path: String, query: String?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
        let path = String(target[..<mark])
        let query = String(target[target.utf8.index(after: mark)...])
        return (path, query)
    }
}
