import Primitives

extension KeyedEncodingContainer {
    /// Encodes a `Duration` as whole milliseconds (JSON reports read `12500`, not Swift's `[12, 500000000000000000]`).
    mutating func encodeMilliseconds(_ duration: Duration?, forKey key: Key) throws {
        if let duration { try encode(duration.wholeMilliseconds, forKey: key) }
    }
}
