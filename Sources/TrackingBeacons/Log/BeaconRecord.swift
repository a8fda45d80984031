import Networking

/// One tracking request as planned and, unless it was a dry run, as attempted: the unit of the beacon log.
public struct BeaconRecord: Sendable, Equatable {
    /// The beacon as planned: event, source, template, expanded URL, playhead, clock, unknown macros. The record
    /// adds what the attempt got.
    public var planned: PlannedBeacon

    /// The VAST event (`planned.event`).
    public var event: String { get { planned.event } set { planned.event = newValue } }
    /// Where the URL came from in the wrapper chain (`planned.source`).
    public var source: String { get { planned.source } set { planned.source = newValue } }
    /// The URL as written in the tag (`planned.template`).
    public var template: String { get { planned.template } set { planned.template = newValue } }
    /// The URL after macro expansion (`planned.url`).
    public var url: String { get { planned.url } set { planned.url = newValue } }
    /// Ad playhead when the event happened (`planned.playhead`).
    public var playhead: Duration { get { planned.playhead } set { planned.playhead = newValue } }
    /// Session clock when the event happened (`planned.clock`).
    public var clock: Duration { get { planned.clock } set { planned.clock = newValue } }
    /// Macros the template uses that had no value (`planned.unknownMacros`).
    public var unknownMacros: [String] { get { planned.unknownMacros } set { planned.unknownMacros = newValue } }

    /// 1 for the first try; more with retries.
    public var attempt: Int
    /// nil when not sent (dry run) or when no response came.
    public var status: Int?
    /// Why it failed, as a value (`failure.code` is stable); nil on success or in a dry run.
    public var failure: BeaconFailure?
    /// `failure` in words, as the log and reports write it.
    public var error: String? { failure?.description }
    /// Time from sending to the end of the response (or the failure), wall clock; nil when not sent.
    public var latency: Duration?
    /// Body bytes received; nil when not sent.
    public var bytes: Int?
    /// True when `--dry-run`: expanded and logged, not sent.
    public var dryRun: Bool
    /// Wall time the attempt was sent, ms since 1970 (nil in a dry run).
    public var sentAt: Int64?
    /// False for an attempt that a retry follows; the last attempt of a beacon decides delivered or failed.
    public var isFinalAttempt = true
    /// The URL actually requested when it differs from `url` (routed to the embedded sink); nil otherwise.
    public var requestedURL: String?
    /// Headers of the final response (for the HAR); empty when none came.
    public var responseHeaders: [HeaderField] = []
    /// URLs requested after the first, in order, when redirects were followed.
    public var redirects: [String] = []
    /// Every HTTP request of the attempt, the first and each redirect hop, with what was sent and received (for the
    /// HAR); empty when the transport does not report them (a recording transport, an attempt cut off at session
    /// end).
    public var hops: [BeaconHop] = []

    /// A record of one attempt, its planned beacon built from the given fields.
    public init(event: String, source: String, template: String, url: String, playhead: Duration, clock: Duration,
                attempt: Int = 1, status: Int? = nil, failure: BeaconFailure? = nil, latency: Duration? = nil, bytes: Int? = nil,
                unknownMacros: [String] = [], dryRun: Bool, sentAt: Int64? = nil) {
        self.init(planned: PlannedBeacon(event: event, source: source, template: template, url: url, playhead: playhead,
                                         clock: clock, unknownMacros: unknownMacros), dryRun: dryRun)
        self.attempt = attempt
        self.status = status
        self.failure = failure
        self.latency = latency
        self.bytes = bytes
        self.sentAt = sentAt
    }

    /// The record of a planned beacon before any attempt: a dry run's log line (`dryRun`), or the start of an
    /// attempt's record.
    public init(planned: PlannedBeacon, dryRun: Bool) {
        self.planned = planned
        self.attempt = 1
        self.dryRun = dryRun
    }

    /// Whether it reached a server that answered 2xx/3xx.
    public var delivered: Bool { status.map { (200..<400).contains($0) } ?? false }

    /// Whether a request went out for this record: false in a dry run and for a beacon the session ended before it
    /// was sent (`BeaconFailure.notSentBeforeSessionEnd`), which have no `sentAt`.
    public var wasSent: Bool { !dryRun && sentAt != nil }
}
