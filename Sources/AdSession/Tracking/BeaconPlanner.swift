import Foundation
import PlayerEngine
import TrackingBeacons
import VAST

/// Turns a tracking target into a planned beacon: macros filled for the moment of its event.
/// One per session; not shared across tasks.
struct BeaconPlanner {
    private var cacheBuster: CacheBuster
    /// `[CACHEBUSTING]` of the pages clicks open: its own sequence, so a click never shifts the beacons' values.
    private var pageCacheBuster: CacheBuster
    private let expander = MacroExpander()
    /// Wall time of the first frame (ms since 1970); an event's `[TIMESTAMP]` is this plus its session clock.
    let wallStart: Int64
    /// `[TRANSACTIONID]`: one UUID for the session, from its seed.
    let transactionID: String
    /// The macro values of the moment being planned: the session's facts (the device's UTC offset for `[TIMESTAMP]`,
    /// the device and app macros, `DEVICEUA` always the User-Agent the requests carry) and the ad's, kept here as they
    /// change, and the event's (playhead, time, cache buster, error code) set in place before each expansion. (Made
    /// anew for each beacon, the context copied every fact, and its arrays and strings, twice a beacon.)
    private var moment: MacroContext
    /// In a pod: the current ad's place, each beacon's `ad`, with its `sequence` (`[PODSEQUENCE]` until an ad's facts
    /// give the ad's own) and `[ADCOUNT]` for it (the InLine ads played so far, this one included).
    private var place: (index: Int, sequence: Int?, adCount: Int)?
    /// `muted` while the player is muted (`[PLAYERSTATE]`).
    var muted: Bool {
        get { moment.playerState == ["muted"] }
        set { moment.playerState = newValue ? ["muted"] : [] }
    }
    /// Macros seen without a value, each reported once per session.
    private(set) var unknownMacros: [String] = []

    /// - Parameter macros: `macros(for: configuration)` when the caller has it already (a fleet makes it once for
    ///   all its sessions).
    ///   `identity`: `configuration.identity`, likewise.
    init(configuration: SessionConfiguration, seed: UInt64, wallStart: Int64, macros: [String: String]? = nil, identity: UInt64? = nil) {
        cacheBuster = CacheBuster(seed: seed)
        pageCacheBuster = CacheBuster(seed: seed ^ 0x7061_6765_7061_6765)
        transactionID = TransactionID.make(seed: seed ^ (identity ?? configuration.identity))
        self.wallStart = wallStart
        moment = MacroContext(timestampMilliseconds: wallStart, timeZoneOffsetMinutes: configuration.timeZoneOffsetMinutes, cacheBuster: "",
                              adType: "video", transactionID: transactionID, extra: macros ?? Self.macros(for: configuration))
    }

    /// The configured device, app and ad-break macros, `DEVICEUA` the User-Agent the requests carry.
    static func macros(for configuration: SessionConfiguration) -> [String: String] {
        var macros = configuration.requestMacros
        macros["DEVICEUA"] = configuration.userAgent
        return macros
    }

    /// A pod's next place: its beacons carry the place, and none of the last ad's facts until `take` gives this one's.
    mutating func enter(place index: Int, sequence: Int?, adCount: Int) {
        place = (index, sequence, adCount)
        take(nil)
    }

    /// Out of every ad (a break's own beacons after its ads): no place, none of an ad's facts.
    mutating func leaveAds() {
        place = nil
        take(nil)
    }

    /// Carries `facts` from now on, or (nil) none of an ad's: `[ADSERVINGID]`, `[UNIVERSALADID]` (each `registry
    /// value`, IAB format; `unknown` for a missing registry, the VAST 4.1 default), `[PODSEQUENCE]`, `[ADTYPE]`,
    /// `[ADCATEGORIES]`, `[ASSETURI]`, and `[ADCOUNT]`: 1 once the ad is known (a single ad), the place's in a pod,
    /// unknown (-1) before.
    mutating func take(_ facts: AdMacroFacts?) {
        guard let facts else {
            moment.adServingId = nil
            moment.universalAdIds = []
            moment.podSequence = place?.sequence
            moment.adType = "video"
            moment.adCount = place?.adCount
            moment.adCategories = []
            moment.assetURI = nil
            return
        }
        let ad = facts.ad
        moment.adServingId = ad.inLine.adServingId
        moment.universalAdIds = ad.linearCreative?.universalAdIds.map { "\($0.idRegistry ?? "unknown") \($0.value)" } ?? []
        moment.podSequence = ad.sequence
        moment.adType = ad.ad.adType ?? "video"
        moment.adCount = place?.adCount ?? 1
        moment.adCategories = ad.inLine.categories.map { $0.code.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        moment.assetURI = facts.assetURI
    }

    /// `[ASSETURI]` of a MediaFile: its URL resolved against the InLine's tag URL (absolute, before any `--map`
    /// rule), or the text as written when it does not resolve.
    static func assetURI(_ mediaURL: String, inLineTagURL: String) -> String {
        let trimmed = mediaURL.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed, relativeTo: URL(string: inLineTagURL))?.absoluteURL, url.scheme != nil else { return trimmed }
        return url.absoluteString
    }

    mutating func plan(_ target: TrackingPlan.Target, playhead: Duration?, clock: Duration, errorCode: VASTErrorCode? = nil, reason: Int? = nil) -> (PlannedBeacon, newUnknown: [String]) {
        setMoment(playhead: playhead, clock: clock, errorCode: errorCode, reason: reason, cacheBuster: cacheBuster.next())
        let expansion = target.template.expand(moment)
        let fresh = expansion.unknownMacros.filter { !unknownMacros.contains($0) }
        unknownMacros += fresh
        var url = expansion.url
        if target.firesAuctionTime {
            // OpenRTB's own macro, never percent-encoded: the wall time it fires at, ms since 1970.
            let (seconds, atto) = clock.components
            url = url.replacingOccurrences(of: TrackingPlan.Target.auctionTime, with: String(wallStart + seconds * 1000 + atto / 1_000_000_000_000_000))
        }
        let planned = PlannedBeacon(
            event: target.event, source: target.sourceName, template: target.url, url: url,
            playhead: playhead ?? .zero, clock: clock, unknownMacros: expansion.unknownMacros)
        var beacon = planned
        beacon.ad = place?.index
        beacon.offset = target.offset
        return (beacon, fresh)
    }

    /// The reward callback of a grant at `clock`: `timestamp` the grant's wall time (ms since 1970), `transaction_id`
    /// this session's, signed by `signer`. A beacon like the others (`rewardCallback`), its template the endpoint.
    func rewardCallback(_ callback: RewardCallback, reward: Reward, signer: RewardSigner, playhead: Duration, clock: Duration) -> PlannedBeacon {
        let (seconds, atto) = clock.components
        let timestamp = wallStart + seconds * 1000 + atto / 1_000_000_000_000_000
        let url = callback.signedURL(reward: reward, timestamp: timestamp, transactionID: transactionID.replacingOccurrences(of: "-", with: ""), signer: signer)
        var beacon = PlannedBeacon(event: "rewardCallback", source: "reward callback", template: callback.url, url: url, playhead: playhead, clock: clock)
        beacon.ad = place?.index
        return beacon
    }

    /// A click-through URL (ClickThrough, CompanionClickThrough, IconClickThrough) as the page it opens: macros filled
    /// for the click's moment (`[ADPLAYHEAD]`, `[TIMESTAMP]`, `[CACHEBUSTING]`…), as a player expands it before
    /// opening the browser. Macros it leaves unknown are not warned about: the page is not a beacon.
    mutating func landingPage(_ template: String, playhead: Duration, clock: Duration) -> String {
        setMoment(playhead: playhead, clock: clock, errorCode: nil, reason: nil, cacheBuster: pageCacheBuster.next())
        return expander.expand(template.trimmingCharacters(in: .whitespacesAndNewlines), context: moment).url
    }

    /// Sets the macro values of one moment (the rest of `moment` is the session's and the ad's facts).
    private mutating func setMoment(playhead: Duration?, clock: Duration, errorCode: VASTErrorCode?, reason: Int?, cacheBuster: String) {
        let (seconds, atto) = clock.components
        moment.adPlayhead = playhead
        moment.errorCode = errorCode?.rawValue
        moment.reason = reason
        moment.timestampMilliseconds = wallStart + seconds * 1000 + atto / 1_000_000_000_000_000
        moment.cacheBuster = cacheBuster
    }
}
