/// One `<Tracking event="…" offset="…">url</Tracking>`.
public struct TrackingEvent: Sendable, Hashable, Encodable {
    /// The `event` attribute (kept even when unknown, so `vplay inspect` can show it).
    public var event: TrackingEventName
    /// The `offset` attribute (`progress` only): a time or a percentage of the duration.
    public var offset: TimeOffset?
    /// The URL template.
    public var url: String

    public init(event: TrackingEventName, offset: TimeOffset? = nil, url: String) {
        self.event = event
        self.offset = offset
        self.url = url
    }
}
