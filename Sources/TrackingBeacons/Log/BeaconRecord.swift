/// One tracking request as planned and, unless it was a dry run, as attempted: the unit of the beacon log.
public struct BeaconRecord: Sendable, Equatable {
    /// The VAST event (`impression`, `firstQuartile`, `error`, `progress`…).
    public var event: String
    /// Where the URL came from in the wrapper chain (`inline`, `wrapper 1 (AdServer)`).
    public var source: String
    /// The URL as written in the tag, macros and all.
    public var template: String
    /// The URL after macro expansion: what was (or would be) requested.
    public var url: String
    /// Ad playhead and session clock when the event happened.
    public var playhead: Duration
    public var clock: Duration
    /// 1 for the first try; more with retries.
    public var attempt: Int
    /// nil when not sent (dry run) or when no response came.
    public var status: Int?
    /// Why it failed, as a value (`failure.code` is stable); nil on success or in a dry run.
    public var failure: BeaconFailure?
    /// `failure` in words, as the log and reports write it.
    public var error: String? { failure?.description }
    public var latency: Duration?
    public var bytes: Int?
    /// Macros the template uses that vplay had no value for (left in the URL as written).
    public var unknownMacros: [String]
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

    public init(event: String, source: String, template: String, url: String, playhead: Duration, clock: Duration,
                attempt: Int = 1, status: Int? = nil, failure: BeaconFailure? = nil, latency: Duration? = nil, bytes: Int? = nil,
                unknownMacros: [String] = [], dryRun: Bool, sentAt: Int64? = nil) {
        self.event = event
        self.source = source
        self.template = template
        self.url = url
        self.playhead = playhead
        self.clock = clock
        self.attempt = attempt
        self.status = status
        self.failure = failure
        self.latency = latency
        self.bytes = bytes
        self.unknownMacros = unknownMacros
        self.dryRun = dryRun
        self.sentAt = sentAt
    }

    /// Whether it reached a server that answered 2xx/3xx.
    public var delivered: Bool { status.map { (200..<400).contains($0) } ?? false }

    /// Whether a request went out for this record: false in a dry run and for a beacon the session ended before it
    /// was sent (`BeaconFailure.notSentBeforeSessionEnd`), which have no `sentAt`.
    public var wasSent: Bool { !dryRun && sentAt != nil }
}
