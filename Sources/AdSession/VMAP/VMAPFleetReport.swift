import Foundation

/// A VMAP fleet: how many viewers reached each break (by `--watch-mix`), and each break's fleet report — expected
/// (the oracle) against sent against received for every URL its ads and the break itself fire.
public struct VMAPFleetReport: Sendable, Equatable, Codable {
    /// The VMAP document as named.
    public var tag: String
    /// Viewers in the fleet, its seed, the scenario mix and the watch mix.
    public var sessions: Int
    public var seed: UInt64
    public var mix: String
    public var watchMix: String
    /// How many shards the viewers are cut into (`--shard K/N`: N), the shards this report holds, and, for a merge
    /// of fewer than all, the missing ones. Every shard works out each break's reach over all the viewers; each
    /// break's fleet then runs its share of them, so the shards' break reports add up to the whole's (`merge`).
    public var shardCount = 1
    public var shards = [0]
    public var missingShards: [Int]?
    /// The simulated content's duration, seconds, and whether it was given (`--content-duration`) or assumed.
    public var contentDuration: Double
    public var contentDurationGiven: Bool
    /// The VMAP findings, in words.
    public var notes: [String] = []
    /// Each occurrence of each break, in play order.
    public var breaks: [Break] = []
    /// The document could not be played (VMAP 1000–1002, 1007, 1008).
    public var error: Failure?
    /// Seconds the whole fleet took.
    public var seconds = 0.0

    public struct Failure: Sendable, Equatable, Codable {
        public var code: Int
        public var message: String
    }

    public struct Break: Sendable, Equatable, Codable {
        /// Its place in play order, its `AdBreak`'s in the document, and which repeat it is.
        public var number: Int
        public var adBreak: Int
        public var occurrence: Int
        public var timeOffset: String
        /// Content time it falls at, seconds; `[BREAKPOSITION]`.
        public var contentTime: Double
        public var position: Int
        /// Viewers who watched far enough to reach it.
        public var reach: Int
        /// `played` (its fleet ran), `failed` (its ads could not be had: every viewer reaching it fired what a failed
        /// session fires), `skipped` (1003, 1005: not requested), `notReached` (no viewer got there), `aborted` (an
        /// earlier break's `--abort-on-fail` breach ended the run first).
        public var outcome: String
        /// Why it failed or was skipped: a VMAP code (1003–1008) or a VAST code.
        public var error: Failure?
        /// The fleet of its viewers: expected, sent, delivered and received per URL (breakStart and breakEnd among
        /// them), the population, the checks; nil when no viewer reached it or it was not requested.
        public var report: FleetReport?
    }

    public init(tag: String, sessions: Int, seed: UInt64, mix: String, watchMix: String, contentDuration: Double, contentDurationGiven: Bool) {
        self.tag = tag
        self.sessions = sessions
        self.seed = seed
        self.mix = mix
        self.watchMix = watchMix
        self.contentDuration = contentDuration
        self.contentDurationGiven = contentDurationGiven
    }

    /// Whether every break that ran sent what its oracle expected and, with a sink, received what it sent.
    public var checksPass: Bool {
        breaks.compactMap(\.report).allSatisfy { $0.checks.sentAsExpected && $0.checks.receivedAsSent != false }
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
