/// `[CACHEBUSTING]` values: random 8-digit numbers (VAST 3+: "a random 8-digit integer"; zero-padded like the peer)
/// from a seeded generator (SplitMix64), so `--seed` makes every URL of a run reproducible.
public struct CacheBuster: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 8-digit value, `00000000`–`99999999`.
    public mutating func next() -> String {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return MacroFormat.pad(Int64(z % 100_000_000), 8)
    }
}
