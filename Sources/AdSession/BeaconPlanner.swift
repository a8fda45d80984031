import PlayerEngine
import TrackingBeacons
import VAST

/// Turns a tracking target into a planned beacon: macros filled for the moment of its event.
/// One per session; not shared across tasks.
struct BeaconPlanner {
    private var cacheBuster: CacheBuster
    private let expander = MacroExpander()
    /// Wall time of the first frame (ms since 1970); an event's `[TIMESTAMP]` is this plus its session clock.
    let wallStart: Int64
    var assetURI: String?
    var adServingId: String?
    var universalAdId: String?
    var podSequence: Int?
    /// `muted` while the player is muted (`[PLAYERSTATE]`).
    var muted = false
    let deviceMacros: [String: String]
    /// Macros seen without a value, each reported once per session.
    private(set) var unknownMacros: [String] = []

    init(seed: UInt64, wallStart: Int64, deviceMacros: [String: String]) {
        cacheBuster = CacheBuster(seed: seed)
        self.wallStart = wallStart
        self.deviceMacros = deviceMacros
    }

    mutating func plan(_ target: TrackingPlan.Target, playhead: Duration?, clock: Duration, errorCode: Int? = nil, reason: Int? = nil) -> (BeaconRecord, newUnknown: [String]) {
        let (seconds, atto) = clock.components
        let context = MacroContext(
            adPlayhead: playhead,
            assetURI: assetURI,
            errorCode: errorCode,
            reason: reason,
            timestampMilliseconds: wallStart + seconds * 1000 + atto / 1_000_000_000_000_000,
            cacheBuster: cacheBuster.next(),
            adServingId: adServingId,
            universalAdId: universalAdId,
            adType: "video",
            podSequence: podSequence,
            playerState: muted ? ["muted"] : [],
            extra: deviceMacros
        )
        let expansion = expander.expand(target.url, values: context.values)
        let fresh = expansion.unknownMacros.filter { !unknownMacros.contains($0) }
        unknownMacros += fresh
        let record = BeaconRecord(
            event: target.event, source: target.source.description, template: target.url, url: expansion.url,
            playhead: playhead ?? .zero, clock: clock, unknownMacros: expansion.unknownMacros, dryRun: true)
        return (record, fresh)
    }
}
