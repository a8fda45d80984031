import Foundation
import TrackingBeacons
import VAST

/// A VMAP break's own `TrackingEvents` — `breakStart`, `breakEnd` and `error` — turned into beacons at their
/// moments: every VAST macro vplay fills (`[TIMESTAMP]`, `[CACHEBUSTING]`, `[BREAKPOSITION]`, the device's), and on
/// `error` VMAP's own `[ERROR_CODE]` and `[ERROR_MESSAGE]` (VMAP 1.0.1 §2.5) besides VAST's `[ERRORCODE]`.
struct VMAPBreakTracking {
    /// The break's tracking URLs as written.
    let tracking: [VMAPDocument.Tracking]
    /// 1-based place of the break in play order (its beacons' `break`), and of its `AdBreak` in the document.
    let number: Int
    let documentIndex: Int
    /// The break's macro values (the session's device macros, its `[BREAKPOSITION]`, `[CONTENTPLAYHEAD]`).
    let macros: [String: String]
    /// Wall time at the session's start (ms since 1970) and the device's UTC offset, for `[TIMESTAMP]`.
    let wallStart: Int64
    let timeZoneOffsetMinutes: Int
    var cacheBuster: CacheBuster

    /// The beacons of `event` at session time `clock`; `error` gives the code and message of an `error` event.
    mutating func fire(_ event: String, at clock: Duration, error: VMAPBreakReport.Failure? = nil) -> [PlannedBeacon] {
        tracking.filter { $0.event == event }.map { item in
            var extra = macros
            if let error {
                extra["ERROR_CODE"] = String(error.code)
                extra["ERROR_MESSAGE"] = error.message
            }
            let context = MacroContext(errorCode: error?.code, timestampMilliseconds: wallStart + clock.wholeMilliseconds,
                                       timeZoneOffsetMinutes: timeZoneOffsetMinutes, cacheBuster: cacheBuster.next(), extra: extra)
            let template = MacroTemplate(item.url.trimmingCharacters(in: .whitespacesAndNewlines))
            let expansion = template.expand(context)
            var beacon = PlannedBeacon(event: event, source: TrackingSource.vmapBreak(index: documentIndex).description, template: item.url,
                                       url: expansion.url, playhead: .zero, clock: clock, unknownMacros: expansion.unknownMacros)
            beacon.adBreak = number
            return beacon
        }
    }
}
