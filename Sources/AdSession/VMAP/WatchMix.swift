import Foundation
import Primitives
import VAST

/// How far each viewer of a VMAP fleet watches the content (`--watch-mix`): `end:60,50%:25,30:15` — 60 parts watch to
/// the end (and see the post-roll), 25 to half the content, 15 for 30 s. Each viewer's point is drawn from these
/// weights by its own seeded generator, a stream apart from its scenario's and its network's: the same index gives
/// the same point in every run and every shard. A viewer reaches a break whose time is at or before its point; only a
/// viewer who watches to the end reaches a post-roll.
public struct WatchMix: Sendable, Equatable, CustomStringConvertible {
    /// Where a viewer stops watching.
    public enum Point: Sendable, Equatable {
        /// The content's end (`contentComplete`): every break, the post-roll too.
        case end
        /// This share of the content's duration (`50%`).
        case percent(Double)
        /// This much content (`30`, seconds).
        case seconds(Duration)

        /// Where it falls in content of `duration`.
        public func resolve(against duration: Duration) -> Duration {
            switch self {
            case .end: duration
            case let .percent(value): duration * (value / 100)
            case let .seconds(time): min(time, duration)
            }
        }

        var text: String {
            switch self {
            case .end: "end"
            case let .percent(value): "\(value.formatted(.number.grouping(.never)))%"
            case let .seconds(time): "\(time.seconds.formatted(.number.grouping(.never)))"
            }
        }
    }

    public struct Share: Sendable, Equatable {
        public var point: Point
        public var weight: Int
    }

    public var shares: [Share]

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Every viewer watches to the end (the default: each break's reach is the whole fleet).
    public static let toTheEnd = WatchMix(shares: [Share(point: .end, weight: 1)])

    init(shares: [Share]) { self.shares = shares }

    /// Parses `POINT:WEIGHT,…` with POINT `end`, `N%` (0 to 100) or N seconds.
    public init(parsing text: String) throws(ParseError) {
        switch WeightedList.parse(text, option: "--watch-mix", expected: "POINT:WEIGHT with POINT end, N% (0 to 100) or N seconds",
                                  key: Self.point, same: { $0 == $1 }, name: \.text) {
        case let .success(shares): self.shares = shares.map { Share(point: $0.key, weight: $0.weight) }
        case let .failure(message): throw ParseError(description: message.text)
        }
    }

    static func point(_ text: String) -> Point? {
        let lowered = text.lowercased()
        if lowered == "end" { return .end }
        if lowered.hasSuffix("%") {
            guard let value = Double(lowered.dropLast()), value.isFinite, (0...100).contains(value) else { return nil }
            return .percent(value)
        }
        guard let seconds = Double(lowered), seconds.isFinite, seconds >= 0, seconds <= 86_400 else { return nil }
        return .seconds(.nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    public var total: Int { shares.reduce(0) { $0 + $1.weight } }

    /// The share (its index) viewer `index` of a fleet seeded with `seed` watches to.
    public func draw(index: Int, seed: UInt64) -> Int {
        var generator = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93) ^ 0x7761_7463_686D_6978)  // "watchmix"
        return WeightedList.pick(shares.map(\.weight), draw: Int(generator.next() % UInt64(total)))
    }

    /// Whether a viewer of share `share` reaches `slot` of content lasting `duration`.
    public func reaches(share: Int, slot: VMAPSchedule.Slot, contentDuration duration: Duration) -> Bool {
        let point = shares[share].point
        if slot.position == 3 { return point == .end }
        if point == .end { return true }
        return slot.time <= point.resolve(against: duration)
    }

    public var description: String { shares.map { "\($0.point.text):\($0.weight)" }.joined(separator: ",") }
}
