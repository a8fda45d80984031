import Findings

/// What a stream played by a stitcher's client-side tracking document finds in that document (MediaTailor's
/// client-side tracking schema; VAST 4.3 §1.1.3 on server-side ad insertion).
public extension Rule {
    static let ssaiEventTime = Rule("VPLAY-ssai-event-time", .warning, spec: "MediaTailor client-side beaconing (startTimeInSeconds); VAST 4.3 §3.5.1 (quartiles)",
                                    "a timed event's document time strays from its ad's span (start, 25/50/75 %, end) by more than a millisecond: it fires at the document's time")
    static let ssaiSpan = Rule("VPLAY-ssai-span", .warning, spec: "MediaTailor client-side ad-tracking schema (avails, ads, trackingEvents)",
                               "an ad runs outside its avail, or a timed event falls outside its ad")
    static let ssaiNoBeacon = Rule("VPLAY-ssai-no-beacon", .warning, spec: "MediaTailor client-side ad-tracking schema (beaconUrls)",
                                   "a tracking event lists no beacon URL: nothing can be counted for it")
    static let ssaiNonLinear = Rule("VPLAY-ssai-nonlinear", .info, spec: "MediaTailor client-side ad-tracking schema (nonLinearAvails, nonLinearAdsList)",
                                    "non-linear avails are listed: a video stream's player shows none of them")
    static let ssaiStreamDuration = Rule("VPLAY-ssai-stream-duration", .info, spec: "MediaTailor client-side ad-tracking schema (avails)",
                                         "the stream's length was assumed (the last avail's end plus 30 s; --content-duration sets it)")
    static let ssaiPollFailed = Rule("VPLAY-ssai-poll-failed", .warning, spec: "MediaTailor client-side tracking API (polling, nextToken)",
                                     "a poll of the tracking document failed: the avails already known play on, new ones are missed")

    /// Every tracking-document rule, in the order `vplay rules` lists them.
    static let ssaiRules: [Rule] = [.ssaiEventTime, .ssaiSpan, .ssaiNoBeacon, .ssaiNonLinear, .ssaiStreamDuration, .ssaiPollFailed]
}
