import Foundation
import TrackingBeacons
import VAST

/// A tracking document's beacon URLs turned into beacons at their moments, every VAST macro vplay fills expanded
/// (SVTA2053 and VAST 4.3 §6 apply them to a stitcher's tracking too): the device's, `[TIMESTAMP]`,
/// `[CACHEBUSTING]`, `[ADPLAYHEAD]` (the ad's own time), `[CONTENTPLAYHEAD]`/`[MEDIAPLAYHEAD]` (the stream's),
/// `[BREAKPOSITION]`, `[ADCOUNT]`, and `[SERVERSIDE]` 0: the player fires them itself.
struct TrackedStreamBeacons {
    /// The session's device and request macros.
    let macros: [String: String]
    let wallStart: Int64
    let timeZoneOffsetMinutes: Int
    let transactionID: String
    var cacheBuster: CacheBuster

    init(configuration: SessionConfiguration, wallStart: Int64) {
        macros = BeaconPlanner.macros(for: configuration)
        self.wallStart = wallStart
        timeZoneOffsetMinutes = configuration.timeZoneOffsetMinutes
        transactionID = configuration.transactionID
        cacheBuster = CacheBuster(seed: configuration.seed ^ 0x7373_6169)  // "ssai"
    }

    /// Where a beacon belongs: its avail (1-based), and its ad in it (nil: the avail's own).
    struct Place {
        var avail: Int
        var ad: Int?
        var breakPosition: Int
        /// The ad's start on the stream (nil for the avail's own events).
        var adStart: Duration?
    }

    /// The beacons of `event` at stream time `stream` and session time `clock`.
    mutating func fire(_ event: TrackingDocument.Event, place: Place, stream: Duration, clock: Duration) -> [PlannedBeacon] {
        event.beaconURLs.map { url in
            var extra = macros
            extra["CONTENTPLAYHEAD"] = MacroFormat.playhead(stream)
            extra["MEDIAPLAYHEAD"] = MacroFormat.playhead(stream)
            extra["BREAKPOSITION"] = String(place.breakPosition)
            extra["SERVERSIDE"] = "0"
            let playhead = place.adStart.map { max(.zero, stream - $0) }
            let context = MacroContext(adPlayhead: playhead, timestampMilliseconds: wallStart + clock.wholeMilliseconds,
                                       timeZoneOffsetMinutes: timeZoneOffsetMinutes, cacheBuster: cacheBuster.next(), adCount: place.ad,
                                       transactionID: transactionID, extra: extra)
            let expansion = MacroTemplate(url.trimmingCharacters(in: .whitespacesAndNewlines)).expand(context)
            let source = place.ad.map { "tracking avail \(place.avail) ad \($0)" } ?? "tracking avail \(place.avail)"
            var beacon = PlannedBeacon(event: event.type, source: source, template: url, url: expansion.url, playhead: playhead ?? .zero, clock: clock,
                                       unknownMacros: expansion.unknownMacros)
            beacon.adBreak = place.avail
            beacon.ad = place.ad
            return beacon
        }
    }
}
