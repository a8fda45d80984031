import PlayerEngine
import Primitives
import Foundation

/// What share of a fleet's viewers are on which network: `wifi:60,4g:30,fast3g:10` (named profiles, weights not
/// necessarily summing to 100). Each session's profile is drawn from these weights by its own seeded generator, a
/// stream apart from its scenario's: the same index gives the same network in every run and every shard.
public struct NetworkMix: Sendable, Equatable, CustomStringConvertible {
    /// One network profile and its weight in the mix.
    public struct Share: Sendable, Equatable {
        /// The simulated network.
        public var profile: NetworkProfile
        /// Its relative weight: a whole number, 0 or more.
        public var weight: Int
    }

    /// The profiles and their weights, in the order written.
    public var shares: [Share]

    /// Why a `--network-mix` value could not be parsed; `description` is the message for the user.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `profile:weight,…` with the named profiles of `NetworkProfile` (wifi, 4g, fast3g, slow3g, offline) or
    /// `kbps=N/rtt=MS` (a slash for the comma of `--network`).
    public init(parsing text: String) throws(ParseError) {
        let names = NetworkProfile.named.map(\.name).joined(separator: ", ")
        switch WeightedList.parse(text, option: "--network-mix", expected: "PROFILE:WEIGHT with PROFILE one of \(names), or kbps=N/rtt=MS",
                                  key: { try? NetworkProfile(parsing: $0.replacingOccurrences(of: "/", with: ",")) },
                                  same: { $0.name == $1.name }, name: \.name) {
        case let .success(shares): self.shares = shares.map { Share(profile: $0.key, weight: $0.weight) }
        case let .failure(message): throw ParseError(description: message.text)
        }
        // Each beacon carries its viewer's network in 8 bits (`FleetTally.Counted`).
        guard shares.count <= FleetTally.Counted.maxNetworks else {
            throw ParseError(description: "--network-mix: \(shares.count) profiles; at most \(FleetTally.Counted.maxNetworks)")
        }
    }

    /// The sum of the weights.
    public var total: Int { shares.reduce(0) { $0 + $1.weight } }

    /// The share (its index) session `index` of a fleet seeded with `seed` is on.
    public func draw(index: Int, seed: UInt64) -> Int {
        var generator = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xA24B_AED4_963E_E407) ^ 0x6E65_7477_6F72_6B73)
        return WeightedList.pick(shares.map(\.weight), draw: Int(generator.next() % UInt64(total)))
    }

    /// The mix as `--network-mix` takes it (a custom profile's comma written as a slash).
    public var description: String {
        shares.map { "\($0.profile.name.replacingOccurrences(of: ",", with: "/")):\($0.weight)" }.joined(separator: ",")
    }
}
