@testable import AdSession
import Testing

/// The latency timeline behind the HTML report's chart: buckets 25 % apart, shards added, percentiles per interval.
@Suite struct FleetLatencyTimelineTests {
    @Test func eachLatency_fallsInTheBucketWhoseBoundHoldsIt() {
        for microseconds: UInt64 in [1, 100, 101, 125, 126, 1_000, 25_000, 999_999, 10_000_000, 500_000_000] {
            let bucket = FleetLatencyTimeline.bucket(microseconds)
            let bounds = FleetLatencyTimeline.bounds
            #expect(microseconds <= bounds[bucket] || bucket == bounds.count - 1, "\(microseconds) µs in bucket \(bucket) ≤ \(bounds[bucket])")
            #expect(bucket == 0 || microseconds > bounds[bucket - 1], "\(microseconds) µs: the bucket below would hold it")
        }
    }

    @Test func shardsAddUp_andPercentilesAreReadPerInterval() {
        var first = FleetLatencyTimeline.Seconds(), second = FleetLatencyTimeline.Seconds()
        for _ in 0..<90 { first.record(second: 0, microseconds: 1_000) }
        for _ in 0..<10 { second.record(second: 1, microseconds: 100_000) }
        second.record(second: 3, microseconds: 5_000)
        let whole = first.timeline.adding(second.timeline)
        var both = first
        both.merge(second)
        #expect(whole == both.timeline)
        let bound = { (microseconds: UInt64) in Double(FleetLatencyTimeline.bounds[FleetLatencyTimeline.bucket(microseconds)]) / 1_000_000 }
        // One interval of 2 s holds the first two seconds: p50 in the 1 ms bucket, p99 in the 100 ms one.
        let intervals = whole.percentiles([0.5, 0.99], width: 2)
        #expect(intervals.map(\.start) == [0, 2] && intervals.map(\.count) == [100, 1])
        #expect(intervals[0].values == [bound(1_000), bound(100_000)] && intervals[1].values == [bound(5_000), bound(5_000)])
    }
}
