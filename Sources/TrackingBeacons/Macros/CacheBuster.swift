import Primitives

/// `[CACHEBUSTING]` values: random 8-digit numbers (VAST 3+: "a random 8-digit integer"; zero-padded like the peer)
/// from a seeded generator (SplitMix64), so `--seed` makes every URL of a run reproducible.
public struct CacheBuster: Sendable {
    private var generator: SplitMix64

    /// A generator seeded with `seed`: the same seed gives the same values in the same order.
    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// The next 8-digit value, `00000000`–`99999999`.
    public mutating func next() -> String {
        MacroFormat.pad(Int64(generator.next() % 100_000_000), 8)
    }
}
