import Foundation

/// Beacon latency second by second of a run, for a chart of its percentiles over time: each second's answers counted in
/// logarithmic buckets (upper bounds 100 µs × 1.25ⁿ, the last open), so shards' timelines add up and a percentile read
/// from them is within a bucket (25 %) of the exact one. Written in the report as `[second, bucket, count]` triples of
/// the non-zero counts.
public struct FleetLatencyTimeline: Sendable, Equatable, Codable {
    /// Each bucket's upper bound, microseconds (the last bucket also takes everything above its bound).
    public static let bounds: [UInt64] = (0..<64).map { UInt64((100 * pow(1.25, Double($0))).rounded()) }

    /// `[second, bucket, count]`, second then bucket ascending, counts above zero.
    public var counts: [[Int]]

    public init(counts: [[Int]] = []) { self.counts = counts }

    /// The bucket of a latency in microseconds.
    static func bucket(_ microseconds: UInt64) -> Int {
        guard microseconds > bounds[0] else { return 0 }
        let index = Int((log(Double(microseconds) / 100) / log(1.25)).rounded(.up))
        return Swift.min(Swift.max(index, 0), bounds.count - 1)
    }

    /// Second → counts per bucket, as a fleet's tally keeps it.
    struct Seconds: Sendable, Equatable {
        var counts: [Int: [Int]] = [:]

        mutating func record(second: Int, microseconds: UInt64) {
            counts[second, default: Array(repeating: 0, count: FleetLatencyTimeline.bounds.count)][FleetLatencyTimeline.bucket(microseconds)] += 1
        }

        mutating func merge(_ other: Self) {
            counts.merge(other.counts) { mine, theirs in zip(mine, theirs).map(+) }
        }

        var timeline: FleetLatencyTimeline {
            FleetLatencyTimeline(counts: counts.keys.sorted().flatMap { second in
                counts[second]!.enumerated().compactMap { bucket, count in count > 0 ? [second, bucket, count] : nil }
            })
        }
    }

    /// This timeline and `other` added (shards of one fleet).
    public func adding(_ other: Self) -> Self {
        var seconds = Seconds()
        for entry in counts + other.counts where entry.count == 3 {
            seconds.counts[entry[0], default: Array(repeating: 0, count: Self.bounds.count)][Swift.min(entry[1], Self.bounds.count - 1)] += entry[2]
        }
        return seconds.timeline
    }

    /// Two shards' timelines added (either may be absent: a report written before they were kept).
    static func sum(_ one: Self?, _ other: Self?) -> Self? {
        guard let one else { return other }
        guard let other else { return one }
        return one.adding(other)
    }

    /// Percentiles (`quantiles`, 0–1) of each interval of `width` seconds, in seconds: the upper bound of the bucket
    /// where each is reached. Intervals without an answer are left out.
    public func percentiles(_ quantiles: [Double], width: Int) -> [(start: Int, count: Int, values: [Double])] {
        var intervals: [Int: [Int]] = [:]
        for entry in counts where entry.count == 3 {
            intervals[entry[0] / Swift.max(1, width) * Swift.max(1, width), default: Array(repeating: 0, count: Self.bounds.count)][entry[1]] += entry[2]
        }
        return intervals.keys.sorted().map { start in
            let buckets = intervals[start]!, total = buckets.reduce(0, +)
            let values = quantiles.map { quantile -> Double in
                var seen = 0
                for (index, count) in buckets.enumerated() {
                    seen += count
                    if Double(seen) >= quantile * Double(total) { return Double(Self.bounds[index]) / 1_000_000 }
                }
                return Double(Self.bounds.last!) / 1_000_000
            }
            return (start, total, values)
        }
    }
}
