/// Which part of a fleet one process runs: shard `index` of `count` runs the sessions whose index `i` has
/// `i % count == index`: the very sessions (same scenarios, same seeds) an unsharded run gives those indices.
public struct FleetShard: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which shard this is, 0-based: it runs the sessions whose index modulo `count` is `index`.
    public var index: Int
    /// How many shards the fleet is cut into.
    public var count: Int

    /// The whole fleet as one shard (`0/1`).
    public static let whole = FleetShard(index: 0, count: 1)

    /// Shard `index` of `count`, not checked (`init?(parsing:)` checks).
    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 0 ≤ K < N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index >= 0, index < count else { return nil }
        self.init(index: index, count: count)
    }

    /// The session indices of this shard among `sessions`.
    public func indices(of sessions: Int) -> StrideTo<Int> { stride(from: index, to: sessions, by: count) }

    public var description: String { "\(index)/\(count)" }
}
