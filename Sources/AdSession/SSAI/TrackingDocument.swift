/// A server-side stitcher's client-side tracking document: what AWS Elemental MediaTailor answers a player that asks
/// for its session's tracking data (`aws.reportingMode=client`). The stream's ad avails (breaks) on its own timeline,
/// each ad's span in it, and every beacon with the stream time it is due at (MediaTailor's "Client-side beaconing"
/// and "Client-side ad-tracking schema and properties" pages). Times are stream seconds, milliseconds kept.
public struct TrackingDocument: Sendable, Equatable {
    /// One `trackingEvents` (or `adBreakTrackingEvents`) entry: an event type and the URLs it fires, due at `start`.
    public struct Event: Sendable, Equatable {
        public var eventID: String?
        /// `eventType`: `impression`, `start`, `firstQuartile`, …, `breakStart`, `breakEnd`, `clickTracking`, ….
        public var type: String
        public var beaconURLs: [String]
        /// `startTimeInSeconds`: when the event is due, on the stream's timeline.
        public var start: Duration
        /// `durationInSeconds` (0 for a moment).
        public var duration: Duration

        public init(eventID: String? = nil, type: String, beaconURLs: [String], start: Duration, duration: Duration = .zero) {
            self.eventID = eventID
            self.type = type
            self.beaconURLs = beaconURLs
            self.start = start
            self.duration = duration
        }
    }

    /// One ad of an avail: its span in the stream and its tracking.
    public struct Ad: Sendable, Equatable {
        public var adID: String?
        public var creativeID: String?
        public var title: String?
        public var start: Duration
        public var duration: Duration
        public var events: [Event]

        public init(adID: String? = nil, creativeID: String? = nil, title: String? = nil, start: Duration, duration: Duration, events: [Event]) {
            self.adID = adID
            self.creativeID = creativeID
            self.title = title
            self.start = start
            self.duration = duration
            self.events = events
        }

        public var end: Duration { start + duration }
    }

    /// One avail: an ad break in the stream.
    public struct Avail: Sendable, Equatable {
        public var availID: String?
        public var start: Duration
        public var duration: Duration
        /// `adBreakTrackingEvents`: the break's own (`breakStart`, `breakEnd`).
        public var breakEvents: [Event]
        public var ads: [Ad]

        public init(availID: String? = nil, start: Duration, duration: Duration, breakEvents: [Event] = [], ads: [Ad]) {
            self.availID = availID
            self.start = start
            self.duration = duration
            self.breakEvents = breakEvents
            self.ads = ads
        }

        public var end: Duration { start + duration }
    }

    public var avails: [Avail]
    /// `nextToken`: MediaTailor's paging token, sent back on the next poll.
    public var nextToken: String?
    /// Non-linear avails and ads listed (`nonLinearAvails`, `nonLinearAdsList`): not played by a video stream.
    public var nonLinearCount: Int
    /// The stream's length when the document says it (a DASH manifest's `mediaPresentationDuration`); MediaTailor's
    /// JSON does not.
    public var streamDuration: Duration?

    public init(avails: [Avail], nextToken: String? = nil, nonLinearCount: Int = 0, streamDuration: Duration? = nil) {
        self.avails = avails
        self.nextToken = nextToken
        self.nonLinearCount = nonLinearCount
        self.streamDuration = streamDuration
    }

    /// The event types a player fires by the stream's time (at their `startTimeInSeconds`); every other type
    /// (`pause`, `mute`, `clickTracking`, …) answers something the viewer does.
    public static let timedTypes: Set<String> = ["impression", "start", "creativeView", "loaded", "firstQuartile", "midpoint", "thirdQuartile",
                                                 "complete", "progress", "breakStart", "breakEnd"]

    /// The types MediaTailor's server keeps in its hybrid reporting mode: the client fires only the others.
    public static let serverTypesInHybrid: Set<String> = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
                                                          "breakStart", "breakEnd"]
}
