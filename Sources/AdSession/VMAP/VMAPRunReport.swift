import Primitives
import VAST

/// A VMAP session as a whole: the document's facts, the content it ran on and each break's outcome in play order.
public struct VMAPRunReport: Sendable, Equatable {
    /// The VMAP document's `version` and the namespace its elements came in.
    public var version: String
    public var namespace: VMAPDocument.Namespace
    /// How long the simulated content lasts, and whether it was given (`--content-duration`) or assumed.
    public var contentDuration: Duration
    public var contentDurationGiven: Bool
    /// How long before its time a break's ads are asked for (`--break-prefetch`).
    public var breakPrefetch: Duration
    /// Each occurrence of each break, in play order.
    public var breaks: [VMAPBreakReport] = []
    /// The content's spans between breaks, on both clocks.
    public var content: [ContentSpan] = []
    /// Session clock at which `contentComplete` was signalled; nil when it never was.
    public var contentComplete: Duration?
    /// What the document and its schedule said that a tester should know, in words (breaks left out with their code,
    /// repeats that gave way, breaks sharing an offset, defaults assumed).
    public var notes: [String] = []
    /// The document could not be played at all (1000 schema, 1001 version, 1002 parsing, 1008 retrieval).
    public var documentError: VMAPError?

    /// One stretch of content played without a break.
    public struct ContentSpan: Sendable, Equatable {
        /// Content time at its start and end.
        public var from: Duration
        public var to: Duration
        /// Session clock at its start and end (longer than the content's own span while the app is in the
        /// background).
        public var start: Duration
        public var end: Duration
    }

    public init(version: String, namespace: VMAPDocument.Namespace, contentDuration: Duration, contentDurationGiven: Bool, breakPrefetch: Duration) {
        self.version = version
        self.namespace = namespace
        self.contentDuration = contentDuration
        self.contentDurationGiven = contentDurationGiven
        self.breakPrefetch = breakPrefetch
    }
}
