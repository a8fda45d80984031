import VAST

/// How a fleet runs: the session every viewer starts from (tag, media choice, device, beacon policy, sink), how many
/// viewers, how many at once, what they do, and which shard of them this process runs.
public struct FleetConfiguration: Sendable {
    /// The most sessions a fleet may have (`fleet --sessions`): each beacon carries its session's index, + 1, in 31 bits
    /// (`FleetTally.Counted`).
    public static let maxSessions = Int(Int32.max) - 1

    /// The tag, `--map`, media criteria, device macros, beacon policy, sink, `--seed` and `--now`. Each session gets
    /// its own seed for `[CACHEBUSTING]`, derived from this one and its index.
    public var session: SessionConfiguration
    /// Sessions in the whole fleet, all shards together.
    public var sessions: Int
    /// Sessions played at once.
    public var concurrency = 16
    /// What share of the sessions does what; each session's scenario kind is drawn from it.
    public var mix: FleetMix
    /// Beacons per second over the whole fleet, all shards together (each shard sends `shardRate`); nil = as fast
    /// as the server answers.
    public var rate: Double?
    /// Which part of the fleet this process runs; `.whole` by default.
    public var shard = FleetShard.whole
    /// Decode the media in every session (FFmpeg per session) instead of replaying the one verified decode.
    public var decodeEach = false
    /// Viewers on simulated networks (`--network-mix`): each session's profile is drawn from it, with the thresholds
    /// of `session.network` (or the defaults). nil: every session's media arrives as fast as it is read.
    public var networkMix: NetworkMix?
    /// `--threshold`s given with `--abort-on-fail`: the first of them breached for good while the fleet runs
    /// (`FleetThreshold.judgedWhileRunning`) stops it (`FleetAbortWatch`); empty: the fleet runs to its end.
    public var abortOn: [FleetThreshold] = []
    /// `--results`: where every session, event and beacon attempt is written as the fleet runs; nil for none.
    public var results: FleetResults?
    /// `--metrics`: where the fleet shows its live figures (each fleet played attaches its tally); nil for none.
    public var metrics: FleetMetricsBoard?
    /// In a VMAP fleet, the break each session plays: its `breakStart` URLs fire before the break's ads, its
    /// `breakEnd` URLs after them (`VMAPFleetRunner`); nil for a fleet of one tag.
    var breakTracking: BreakTracking?

    /// A VMAP break's own tracking, as a fleet session fires it (`FleetRunner+Break`).
    struct BreakTracking: Sendable {
        var start: [TrackingPlan.Target]
        var end: [TrackingPlan.Target]
        /// The break's `error` URLs for a failure of this code and message, the error macros filled.
        var errors: @Sendable (_ code: Int, _ message: String) -> [TrackingPlan.Target] = { _, _ in [] }
        /// The break is not asked for (a break type or template this player does not play, nothing to ask): every
        /// session that reaches it fires only its `error` tracking.
        var notRequested: VMAPError?
    }

    /// This shard's part of `rate`: the fleet's rate divided by the shard count, so N shards together send `rate`.
    public var shardRate: Double? { rate.map { $0 / Double(shard.count) } }

    /// A fleet of `sessions` sessions of `session` with scenarios drawn from `mix`, 16 at once, at no rate limit, as
    /// one shard.
    public init(session: SessionConfiguration, sessions: Int, mix: FleetMix) {
        self.session = session
        self.sessions = sessions
        self.mix = mix
    }
}

