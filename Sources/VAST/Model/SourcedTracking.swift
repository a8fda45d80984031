/// A tracking URL of one event, with its offset (for `progress`) and where it came from.
public struct SourcedTracking: Sendable, Hashable, Encodable {
    /// The event name.
    public var event: TrackingEventName
    /// The `offset` attribute, for `progress`.
    public var offset: TimeOffset?
    /// The URL template.
    public var url: String
    /// Where it came from.
    public var source: TrackingSource

    public init(event: TrackingEventName, offset: TimeOffset?, url: String, source: TrackingSource) {
        self.event = event
        self.offset = offset
        self.url = url
        self.source = source
    }
}
