/// What a stream with a client-side tracking document did: each avail, ad and tracking event with when it was due
/// (the document's time and vplay's rule) and what became of it.
public struct TrackedStreamReport: Sendable {
    /// What became of one tracking event.
    public enum Status: String, Sendable {
        /// Its beacons were fired at `firedAt`.
        case fired
        /// Fired by the server (`--reporting hybrid`), not by the player.
        case server
        /// Answers a viewer's action the run had none of (`clickTracking`, `mute`, …).
        case interaction
        /// A forward seek passed over its time: the viewer never played it.
        case seekedPast
        /// The stream ended (or the viewer stopped) before its time.
        case notReached
    }

    public struct EventReport: Sendable {
        public var type: String
        public var eventID: String?
        /// When the document says it is due (stream time).
        public var documentTime: Duration
        /// When vplay's rule puts it (stream time): an ad's start, quartile points and end, an avail's start and end;
        /// nil for a type the rule does not time.
        public var ruleTime: Duration?
        /// Session time it fired at.
        public var firedAt: Duration?
        public var status: Status
        public var beacons: Int
    }

    public struct AdReport: Sendable {
        public var number: Int
        public var adID: String?
        public var start: Duration
        public var duration: Duration
        public var events: [EventReport]
    }

    public struct AvailReport: Sendable {
        public var number: Int
        public var availID: String?
        public var start: Duration
        public var duration: Duration
        public var breakEvents: [EventReport]
        public var ads: [AdReport]
    }

    public var documentURL: String
    public var reporting: TrackedStreamPlayback.Reporting
    public var streamDuration: Duration
    public var streamDurationGiven: Bool
    /// Times the document was fetched (1 without polling).
    public var polls = 0
    public var avails: [AvailReport] = []
    /// The stream's spans as played, on both clocks (seeks and backgrounds cut them).
    public var content: [VMAPRunReport.ContentSpan] = []
    /// What a reviewer should know: times off vplay's rule, ads outside their avail, polls that failed, ….
    public var findings: [String] = []
    /// Why the document could not be played; nil when it was.
    public var documentError: TrackingDocumentError?

    public init(documentURL: String, reporting: TrackedStreamPlayback.Reporting, streamDuration: Duration, streamDurationGiven: Bool) {
        self.documentURL = documentURL
        self.reporting = reporting
        self.streamDuration = streamDuration
        self.streamDurationGiven = streamDurationGiven
    }

    /// Every event, the breaks' and the ads'.
    public var events: [EventReport] { avails.flatMap { $0.breakEvents + $0.ads.flatMap(\.events) } }
}
