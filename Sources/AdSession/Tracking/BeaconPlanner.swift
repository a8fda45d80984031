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
    /// `[ASSETURI]`: the absolute URL of the media file played (`assetURI(_:inLineTagURL:)`).
    var assetURI: String? { get { moment.assetURI } set { moment.assetURI = newValue } }
    var adServingId: String? { get { moment.adServingId } set { moment.adServingId = newValue } }
    /// `registry value` of each `<UniversalAdId>` of the creative played.
    var universalAdIds: [String] { get { moment.universalAdIds } set { moment.universalAdIds = newValue } }
    var podSequence: Int? { get { moment.podSequence } set { moment.podSequence = newValue } }
    /// `[ADTYPE]`: the ad's `adType` (VAST 4.1), `video` when it has none.
    var adType: String { get { moment.adType ?? "video" } set { moment.adType = newValue } }
    /// `[ADCOUNT]`: 1 once the ad to play is known (a single ad); in a pod, the InLine ads played so far, the
    /// current one included (`podAdCount`); unknown (-1) before.
    var adCount: Int? { get { moment.adCount } set { moment.adCount = newValue } }
    /// In a pod: the place of the current ad (each beacon's `ad`) and `[ADCOUNT]` for it.
    var breakPlace: Int?
    var podAdCount: Int?
    /// In a pod: the current place's `sequence`, `[PODSEQUENCE]` until an ad's facts give the ad's own.
    var placeSequence: Int?
    /// `[ADCATEGORIES]`: the InLine's `<Category>` codes (it sent `-1` though the tag said them).
    var adCategories: [String] { get { moment.adCategories } set { moment.adCategories = newValue } }
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

    /// Takes the macro facts of the ad that plays: `[ADSERVINGID]`, `[UNIVERSALADID]` (each `registry value`,
    /// IAB format; `unknown` for a missing registry, the VAST 4.1 default), `[PODSEQUENCE]`, `[ADCOUNT]` = 1.
    mutating func begin(_ ad: ResolvedAd) {
        adServingId = ad.inLine.adServingId
        universalAdIds = ad.linearCreative?.universalAdIds.map { "\($0.idRegistry ?? "unknown") \($0.value)" } ?? []
        podSequence = ad.sequence
        adType = ad.ad.adType ?? "video"
        adCount = podAdCount ?? 1
        adCategories = ad.inLine.categories.map { $0.code.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Carries `facts` from now on: the ad's and its media's, or (nil) none of an ad's. A pod's place keeps its own
    /// sequence and count (`[PODSEQUENCE]`, `[ADCOUNT]`) until an ad's facts say otherwise.
    mutating func take(_ facts: AdMacroFacts?) {
        forgetAd()
        podSequence = placeSequence
        adCount = podAdCount
        guard let facts else { return }
        begin(facts.ad)
        assetURI = facts.assetURI
    }

    /// Forgets the last ad's facts (a pod's next ad is being tried; `begin` gives its own).
    mutating func forgetAd() {
        adServingId = nil
        universalAdIds = []
        podSequence = nil
        adType = "video"
        adCategories = []
        assetURI = nil
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
        let planned = PlannedBeacon(
            event: target.event, source: target.sourceName, template: target.url, url: expansion.url,
            playhead: playhead ?? .zero, clock: clock, unknownMacros: expansion.unknownMacros)
        var beacon = planned
        beacon.ad = breakPlace
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
        beacon.ad = breakPlace
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
