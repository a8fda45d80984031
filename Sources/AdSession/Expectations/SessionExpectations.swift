import Foundation

/// What a run must show, for regression tests (`--expect FILE`, JSON or YAML): events at times (within a
/// tolerance), beacons by event and URL with counts, the reward, the error code, the ending; with `strict`, also
/// that nothing else happened (no event name and no beacon the file does not list). Unknown keys are refused when
/// decoding (`SessionExpectations+Decoding.swift`).
///
/// ```json
/// {
///   "tolerance": 0.001,
///   "events": [{"name": "midpoint", "playhead": 5.0, "clock": 15.0}, {"name": "complete", "count": 1}],
///   "beacons": [{"event": "midpoint", "url": "*pos=00%3A00%3A05.000*", "count": 1}, {"url": "*/error*", "count": 0}],
///   "…": "in an ad pod, an event or beacon with \"ad\": 2 speaks of the pod's second ad only; in a VMAP session, \"break\": 2 of the second break",
///   "reward": true,
///   "errorCode": null,
///   "ending": "completed"
/// }
/// ```
public struct SessionExpectations: Codable, Sendable, Equatable {
    /// An event that must happen (`count` times, default at least once) at a playhead and/or clock time.
    public struct Event: Codable, Sendable, Equatable {
        /// The event's name (`midpoint`, `skip`, …).
        public var name: String
        /// Which occurrence the times refer to (1-based); default 1.
        public var occurrence: Int?
        /// The playhead it must happen at, seconds.
        public var playhead: Double?
        /// The session clock it must happen at, seconds.
        public var clock: Double?
        /// Seconds; overrides the file's tolerance.
        public var tolerance: Double?
        /// Exactly this many occurrences (0 = never).
        public var count: Int?
        /// The event's detail must equal this (`inactive`, `skip: …`).
        public var detail: String?
        /// In an ad pod: only the events of the ad at this 1-based place count (`occurrence`, `count` within it).
        public var ad: Int?
        /// In a VMAP session (`break`): only the events of the break at this 1-based place in play order count.
        public var adBreak: Int?

        enum CodingKeys: String, CodingKey { case name, occurrence, playhead, clock, tolerance, count, detail, ad, adBreak = "break" }

        /// An expectation of the event `name`; every other field nil (its default).
        public init(name: String, occurrence: Int? = nil, playhead: Double? = nil, clock: Double? = nil, tolerance: Double? = nil, count: Int? = nil, detail: String? = nil,
                    ad: Int? = nil, adBreak: Int? = nil) {
            self.ad = ad
            self.adBreak = adBreak
            self.name = name
            self.occurrence = occurrence
            self.playhead = playhead
            self.clock = clock
            self.tolerance = tolerance
            self.count = count
            self.detail = detail
        }
    }

    /// Beacons that must have fired (final attempts), by event and/or URL, `count` times (default exactly once).
    public struct Beacon: Codable, Sendable, Equatable {
        /// The event the beacon fired for (`impression`, `midpoint`, …).
        public var event: String?
        /// A glob (`*` any run of characters) over the URL as sent; or the exact template with `template`.
        public var url: String?
        /// The URL as written in the tag (macros unexpanded): stable across seeds and wall times.
        public var template: String?
        /// Where its URL came from in the wrapper chain (`inline`, `wrapper 1 (AdSystem)`, …).
        public var source: String?
        /// How many (0 = never); default 1.
        public var count: Int?
        /// Every matching beacon must have been delivered (2xx/3xx).
        public var delivered: Bool?
        /// In an ad pod: only the beacons of the ad at this 1-based place count.
        public var ad: Int?
        /// In a VMAP session (`break`): only the beacons of the break at this 1-based place in play order count.
        public var adBreak: Int?

        enum CodingKeys: String, CodingKey { case event, url, template, source, count, delivered, ad, adBreak = "break" }

        /// An expectation of beacons matching every field given; nil fields match anything (`count` defaults to 1).
        public init(event: String? = nil, url: String? = nil, template: String? = nil, source: String? = nil, count: Int? = nil, delivered: Bool? = nil,
                    ad: Int? = nil, adBreak: Int? = nil) {
            self.ad = ad
            self.adBreak = adBreak
            self.event = event
            self.url = url
            self.template = template
            self.source = source
            self.count = count
            self.delivered = delivered
        }
    }

    /// Seconds of slack for event times; default 0.001 (times are reported to the millisecond).
    public var tolerance: Double?
    /// Events that must happen.
    public var events: [Event]?
    /// Beacons that must (or, with `count` 0, must not) have fired.
    public var beacons: [Beacon]?
    /// The reward must (true) or must not (false) be granted.
    public var reward: Bool?
    /// The VAST error code the run must end with; `0` = no error.
    public var errorCode: Int?
    /// `completed`, `skipped`, `closedEarly` or `failed`.
    public var ending: String?
    /// Nothing else may happen: every event must have its name among `events`, every fired beacon must match one
    /// of `beacons`. A golden file is strict, so a new beacon or event is a change it reports.
    public var strict: Bool?

    /// Expectations as given; nil fields expect nothing.
    public init(tolerance: Double? = nil, events: [Event]? = nil, beacons: [Beacon]? = nil, reward: Bool? = nil, errorCode: Int? = nil,
                ending: String? = nil, strict: Bool? = nil) {
        self.tolerance = tolerance
        self.events = events
        self.beacons = beacons
        self.reward = reward
        self.errorCode = errorCode
        self.ending = ending
        self.strict = strict
    }

    /// Whether the file expects nothing at all.
    public var isEmpty: Bool {
        (events ?? []).isEmpty && (beacons ?? []).isEmpty && reward == nil && errorCode == nil && ending == nil && strict != true
    }
}
