import Foundation
import PlayerEngine

/// What a fleet did, in two parts: the **population** (scenarios drawn, events fired, each beacon's expected, sent,
/// delivered and received counts, failures by reason) depends only on the tag, the seed, the mix and the sessions
/// run, so a sharded run merged (`vplay merge`) equals the unsharded run; the **performance** (wall time, rates,
/// latency, memory) is what this machine measured.
public struct FleetReport: Sendable, Equatable, Codable {
    /// What was run.
    public struct Fleet: Sendable, Equatable, Codable {
        /// The tag the fleet played.
        public var tag: String
        /// Sessions in the whole fleet, all shards together.
        public var sessions: Int
        /// The fleet's seed (`--seed`), from which each session's seed is derived.
        public var seed: UInt64
        /// The scenario mix, as `kind:weight,…`.
        public var mix: String
        /// How many shards the fleet was cut into, and which of them this report holds (all of them when merged).
        public var shardCount: Int
        /// The indexes of the shards this report holds.
        public var shards: [Int]
        /// A merged report of fewer than all shards: the ones missing (absent from a complete or one-shard report).
        public var missingShards: [Int]?
        /// The URL of the media file the sessions played.
        public var media: String
        /// The media's duration, seconds.
        public var duration: Double
        /// Whether every session decoded the media itself instead of replaying the one verified decode.
        public var decodeEach: Bool
        /// Whether beacons were only expanded and counted, never sent.
        public var dryRun: Bool
        /// `--network-mix`, when the viewers were on simulated networks.
        public var networkMix: String? = nil
    }

    /// One tracking URL of the ad, with its counts over the sessions of the report.
    public struct Beacon: Sendable, Equatable, Codable {
        /// The event it fires on (`impression`, `start`, `progress`, …).
        public var event: String
        /// Where it came from in the wrapper chain (`inline`, `wrapper 1 (AdSystem)`, …).
        public var source: String
        /// The URL as written in the VAST, macros not expanded.
        public var template: String
        /// For progress: its offset, seconds.
        public var offset: Double?
        /// What the scenarios imply (`FleetOracle`).
        public var expected: Int
        /// Beacons the sessions fired (one per firing, retries not counted).
        public var sent: Int
        /// Of those, answered 2xx/3xx (final attempt).
        public var delivered: Int
        /// Requests the embedded sink received for it (with `--sink`); nil without a sink.
        public var received: Int?
        /// In an ad pod: the place of the ad it belongs to (nil for a single ad, and for what fires before the pod).
        public var ad: Int? = nil
    }

    /// The counts that depend only on the tag, the seed, the mix and the sessions run: equal for a merged sharded run
    /// and an unsharded one.
    public struct Population: Sendable, Equatable, Codable {
        /// Sessions by scenario kind.
        public var scenarios: [String: Int]
        /// Sessions by how their video ended (completed, skipped, closedEarly, failed, none).
        public var endings: [String: Int]
        /// Sessions whose reward was granted.
        public var rewardsGranted: Int
        /// Sessions whose reward was forfeited (`rewardForfeited`).
        public var rewardsForfeited: Int
        /// Playback events by name, over every session.
        public var events: [String: Int]
        /// Every tracking URL of the ad, in the plan's order.
        public var beacons: [Beacon]
        /// Failed beacons by reason (final attempts).
        public var failures: [String: Int]
        /// Hits the sink received that no beacon accounts for.
        public var unexpected: Int?
        /// Under `--network-mix`: per network profile, how its viewers did.
        public var networks: [String: NetworkPopulation]? = nil
        /// When the ad's viewability is decided (`<ViewableImpression>`): how many ad plays were viewable, not
        /// viewable, undetermined, and the viewable rate (viewable over viewable and not viewable).
        public var viewability: Viewability? = nil
        /// Server-side mode (`--ssai server`): per stitched event, how often the stitcher fired it, how often no one
        /// saw it, and how far it ran ahead of the viewer.
        public var serverSide: [String: FleetStitched]? = nil
    }

    /// How many ad plays ended `viewable`, `notViewable` or `viewUndetermined`, and the viewable rate.
    public struct Viewability: Sendable, Equatable, Codable {
        /// Ad plays measured viewable.
        public var viewable = 0
        /// Ad plays measured not viewable.
        public var notViewable = 0
        /// Ad plays whose viewability was reported undetermined.
        public var undetermined = 0
        /// viewable / (viewable + notViewable); nil when neither happened.
        public var rate: Double?

        /// Counts with `rate` computed from them (nil when `viewable` and `notViewable` are both 0).
        public init(viewable: Int, notViewable: Int, undetermined: Int) {
            self.viewable = viewable
            self.notViewable = notViewable
            self.undetermined = undetermined
            rate = viewable + notViewable > 0 ? Double(viewable) / Double(viewable + notViewable) : nil
        }

        /// From the events counted by name; nil when there were none.
        static func of(events: [String: Int]) -> Viewability? {
            let counts = (events["viewable"] ?? 0, events["notViewable"] ?? 0, events["viewUndetermined"] ?? 0)
            guard counts.0 + counts.1 + counts.2 > 0 else { return nil }
            return Viewability(viewable: counts.0, notViewable: counts.1, undetermined: counts.2)
        }
    }

    /// The viewers of one simulated network: how many, how many never started (402: the media was not ready within
    /// the media timeout), their stalls, and how many reached each quartile.
    public struct NetworkPopulation: Sendable, Equatable, Codable {
        /// Sessions on this network.
        public var sessions = 0
        /// Of those, sessions whose media was not ready to play in time (402).
        public var failedToLoad = 0
        /// Sessions that stalled for media at least once.
        public var sessionsThatStalled = 0
        /// Stalls for media (`bufferStart`) over all its sessions.
        public var rebuffers = 0
        /// Time spent in those stalls, seconds.
        public var stalledSeconds = 0.0
        /// Sessions that reached `start`, `firstQuartile`, `midpoint`, `thirdQuartile`, `complete`.
        public var reached: [String: Int] = [:]
        /// Beacons its sessions sent, and of those delivered and failed (final attempts).
        public var beaconsSent = 0, beaconsDelivered = 0, beaconsFailed = 0

        static let milestones: [PlaybackEvent.Name] = [.start, .firstQuartile, .midpoint, .thirdQuartile, .complete]

        /// No sessions yet: every count 0.
        public init() {}

        /// `stalledSeconds` is written `stallTime` (seconds, like every time in vplay's JSON); a report written
        /// before that rename still reads.
        enum CodingKeys: String, CodingKey {
            case sessions, failedToLoad, sessionsThatStalled, rebuffers, reached, beaconsSent, beaconsDelivered, beaconsFailed
            case stalledSeconds = "stallTime"
        }

        enum LegacyKeys: String, CodingKey { case stalledSeconds }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            sessions = try c.decode(Int.self, forKey: .sessions)
            failedToLoad = try c.decode(Int.self, forKey: .failedToLoad)
            sessionsThatStalled = try c.decode(Int.self, forKey: .sessionsThatStalled)
            rebuffers = try c.decode(Int.self, forKey: .rebuffers)
            reached = try c.decode([String: Int].self, forKey: .reached)
            beaconsSent = try c.decodeIfPresent(Int.self, forKey: .beaconsSent) ?? 0
            beaconsDelivered = try c.decodeIfPresent(Int.self, forKey: .beaconsDelivered) ?? 0
            beaconsFailed = try c.decodeIfPresent(Int.self, forKey: .beaconsFailed) ?? 0
            stalledSeconds = try c.decodeIfPresent(Double.self, forKey: .stalledSeconds)
                ?? decoder.container(keyedBy: LegacyKeys.self).decode(Double.self, forKey: .stalledSeconds)
        }
    }

    /// Beacon latency over the fleet: percentiles in seconds (to the microsecond), like every time in vplay's JSON.
    public struct Latency: Sendable, Equatable, Codable {
        /// Beacon attempts sent whose latency was recorded.
        public var count: Int
        /// Median latency, seconds.
        public var p50: Double
        /// 90th percentile, seconds.
        public var p90: Double
        /// 99th percentile, seconds.
        public var p99: Double
        /// The largest latency recorded, seconds.
        public var max: Double
        /// The HdrHistogram's recorded values as `[microseconds, count]` pairs, so shards merge exactly; written
        /// `histogramMicroseconds`, its unit in its name.
        public var histogram: [[UInt64]]

        /// Percentiles in seconds and the histogram's `[microseconds, count]` pairs.
        public init(count: Int, p50: Double, p90: Double, p99: Double, max: Double, histogram: [[UInt64]]) {
            self.count = count
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
            self.histogram = histogram
        }

        enum CodingKeys: String, CodingKey {
            case count, p50, p90, p99, max
            case histogram = "histogramMicroseconds"
        }

        /// The keys of a report written before every time became seconds (`p50Ms`…, `histogram`): still read, so
        /// older shard reports merge.
        enum LegacyKeys: String, CodingKey { case p50Ms, p90Ms, p99Ms, maxMs, histogram }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            count = try c.decode(Int.self, forKey: .count)
            if c.contains(.p50) {
                p50 = try c.decode(Double.self, forKey: .p50)
                p90 = try c.decode(Double.self, forKey: .p90)
                p99 = try c.decode(Double.self, forKey: .p99)
                max = try c.decode(Double.self, forKey: .max)
                histogram = try c.decode([[UInt64]].self, forKey: .histogram)
            } else {
                let old = try decoder.container(keyedBy: LegacyKeys.self)
                p50 = try old.decode(Double.self, forKey: .p50Ms) / 1000
                p90 = try old.decode(Double.self, forKey: .p90Ms) / 1000
                p99 = try old.decode(Double.self, forKey: .p99Ms) / 1000
                max = try old.decode(Double.self, forKey: .maxMs) / 1000
                histogram = try old.decode([[UInt64]].self, forKey: .histogram)
            }
        }
    }

    /// What this machine measured while running the fleet: wall time, rates, beacon latency, memory. Not expected to be
    /// equal across runs.
    public struct Performance: Sendable, Equatable, Codable {
        /// Wall time of the sessions and their beacons (merged: the longest shard's, as shards run side by side).
        public var seconds: Double
        /// The one decode that verified the media (per shard; merged: the longest).
        public var decodeSeconds: Double
        /// Sessions over `seconds`.
        public var sessionsPerSecond: Double
        /// Beacons sent over `seconds`.
        public var beaconsPerSecond: Double
        /// Beacon latency over the fleet.
        public var latency: Latency
        /// Peak resident memory of the process (merged: the largest shard's), MiB.
        public var peakRSSMiB: Double
        /// Beacon latency second by second of the run (answers counted in log buckets), for its percentiles over time;
        /// absent in a report written before it was kept.
        public var latencyBySecond: FleetLatencyTimeline?

        /// Times are written without a unit (seconds): `seconds` as `wallTime`, `decodeSeconds` as `decodeTime`, and
        /// `latency` (an object, where every other `latency` is one time) as `beaconLatency`; a report written before
        /// those renames still reads.
        enum CodingKeys: String, CodingKey {
            case sessionsPerSecond, beaconsPerSecond, peakRSSMiB, latencyBySecond
            case seconds = "wallTime", decodeSeconds = "decodeTime", latency = "beaconLatency"
        }

        enum LegacyKeys: String, CodingKey { case seconds, decodeSeconds, latency }

        /// Performance figures as measured; times in seconds, memory in MiB.
        public init(seconds: Double, decodeSeconds: Double, sessionsPerSecond: Double, beaconsPerSecond: Double, latency: Latency, peakRSSMiB: Double,
                    latencyBySecond: FleetLatencyTimeline? = nil) {
            self.seconds = seconds
            self.decodeSeconds = decodeSeconds
            self.sessionsPerSecond = sessionsPerSecond
            self.beaconsPerSecond = beaconsPerSecond
            self.latency = latency
            self.peakRSSMiB = peakRSSMiB
            self.latencyBySecond = latencyBySecond
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let old = try decoder.container(keyedBy: LegacyKeys.self)
            seconds = try c.decodeIfPresent(Double.self, forKey: .seconds) ?? old.decode(Double.self, forKey: .seconds)
            decodeSeconds = try c.decodeIfPresent(Double.self, forKey: .decodeSeconds) ?? old.decode(Double.self, forKey: .decodeSeconds)
            sessionsPerSecond = try c.decode(Double.self, forKey: .sessionsPerSecond)
            beaconsPerSecond = try c.decode(Double.self, forKey: .beaconsPerSecond)
            latency = try c.decodeIfPresent(Latency.self, forKey: .latency) ?? old.decode(Latency.self, forKey: .latency)
            peakRSSMiB = try c.decode(Double.self, forKey: .peakRSSMiB)
            latencyBySecond = try c.decodeIfPresent(FleetLatencyTimeline.self, forKey: .latencyBySecond)
        }
    }

    /// Whether the counts agree: every beacon sent as often as the scenarios imply, and (with a sink) received as
    /// often as sent, nothing unexpected.
    public struct Checks: Sendable, Equatable, Codable {
        /// Every beacon was sent as often as the scenarios imply.
        public var sentAsExpected: Bool
        /// With a sink: every beacon received as often as sent and no unexpected hit; nil without a sink.
        public var receivedAsSent: Bool?
        /// Server-side mode with a sink: every hit carried the device's X-Device-IP and X-Device-User-Agent (and
        /// X-Forwarded-For when asked); nil otherwise.
        public var deviceFields: Bool? = nil
    }

    /// The report's kind in its JSON: always `fleet`.
    public var kind = "fleet"
    /// What was run.
    public var fleet: Fleet
    /// The counts that do not depend on the machine.
    public var population: Population
    /// Whether the population's counts agree.
    public var checks: Checks
    /// What this machine measured.
    public var performance: Performance
    /// What was worth saying while preparing the ad and the run (a media file skipped, a VAST Duration that differs
    /// from the media's, a sink that could not start), once each.
    public var warnings: [String]
    /// Why no session could play, when none could (no ad, no playable media): the error every session met and
    /// fired to the ad's Error URLs (their counts are the population's beacons). Absent when the ad played.
    public var error: Failure? = nil
    /// Each `--threshold` as judged on this report, in the order given; absent without one.
    public var thresholds: [Threshold]? = nil
    /// With `--abort-on-fail`: the threshold breached for good that stopped the run early (its counts are then those of
    /// the sessions played until then); absent when the run went to its end.
    public var aborted: Abort? = nil

    /// Why and when `--abort-on-fail` stopped the run.
    public struct Abort: Sendable, Equatable, Codable {
        /// The threshold, as given.
        public var threshold: String
        /// Its verdict on the figures when the breach was seen.
        public var message: String
        /// When, in seconds since the fleet's sessions began (the network clock).
        public var seconds: Double
        public init(threshold: String, message: String, seconds: Double) {
            (self.threshold, self.message, self.seconds) = (threshold, message, seconds)
        }
    }

    /// A `--threshold`'s verdict: its text, whether it held, the figure it judged (nil: nothing in its scope), in words.
    public struct Threshold: Sendable, Equatable, Codable {
        public var threshold: String
        public var passed: Bool
        public var actual: Double?
        public var message: String
        public init(_ verdict: FleetThreshold.Verdict) {
            (threshold, passed, actual, message) = (verdict.threshold.text, verdict.passed, verdict.actual, verdict.message)
        }
    }

    /// The error of a fleet whose ad cannot play, as a single session reports it.
    public struct Failure: Sendable, Equatable, Codable {
        /// `ad`, `media`, `network`…: what failed (`SessionError.Kind`).
        public var kind: String
        /// The VAST error code sent to the Error URLs.
        public var code: Int
        public var message: String
        public init(kind: String, code: Int, message: String) { (self.kind, self.code, self.message) = (kind, code, message) }
    }

    /// Sorted keys, so equal reports are equal bytes.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Checks `population`: each beacon sent as expected and, when any beacon has a received count, received as sent
    /// with no unexpected hits.
    public static func checks(of population: Population) -> Checks {
        let sentAsExpected = population.beacons.allSatisfy { $0.sent == $0.expected }
        let hasSink = population.beacons.contains { $0.received != nil }
        let receivedAsSent = hasSink ? population.beacons.allSatisfy { $0.received == $0.sent } && (population.unexpected ?? 0) == 0 : nil
        return Checks(sentAsExpected: sentAsExpected, receivedAsSent: receivedAsSent)
    }
}
