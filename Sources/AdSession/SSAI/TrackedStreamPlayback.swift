/// How a stream with a client-side tracking document runs (`vplay --tracking-doc DOC`): how long it lasts, who fires
/// which beacons, how often the document is asked for again, and what the viewer does to the stream.
public struct TrackedStreamPlayback: Sendable, Equatable {
    /// Who fires the timed beacons.
    public enum Reporting: String, Sendable, CaseIterable {
        /// Client-side reporting: the player fires every beacon of the document.
        case client
        /// MediaTailor's hybrid mode: the server fires impression, start, the quartiles, complete, breakStart and
        /// breakEnd; the player fires the rest (the viewer's interactions).
        case hybrid
    }

    /// How long the stream lasts; nil: the last avail's end plus 30 s (a finding says so).
    public var streamDuration: Duration?
    public var reporting: Reporting
    /// Ask for the document again every this much stream time (a live stream's player polls); nil: once, at the
    /// start (a VOD stream's document lists every avail).
    public var pollInterval: Duration?
    /// Seeks, the app in the background, and where the viewer stops (`contentComplete@T`).
    public var contentScript: ContentScript

    public init(streamDuration: Duration? = nil, reporting: Reporting = .client, pollInterval: Duration? = nil, contentScript: ContentScript = ContentScript()) {
        self.streamDuration = streamDuration
        self.reporting = reporting
        self.pollInterval = pollInterval
        self.contentScript = contentScript
    }

    /// The stream's length when none is given: the latest avail's end plus 30 s.
    public static func defaultDuration(_ document: TrackingDocument) -> Duration {
        (document.avails.map { max($0.end, $0.ads.map(\.end).max() ?? .zero) }.max() ?? .zero) + .seconds(30)
    }
}
