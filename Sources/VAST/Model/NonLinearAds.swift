/// `<NonLinearAds>`: overlays shown over content. Parsed for inspection; vplay reports them as not playable.
public struct NonLinearAds: Sendable, Hashable, Encodable {
    /// `<NonLinear>` elements.
    public var nonLinears: [NonLinear]
    /// `<TrackingEvents>` shared by the NonLinear creatives.
    public var tracking: [TrackingEvent]

    public init(nonLinears: [NonLinear] = [], tracking: [TrackingEvent] = []) {
        self.nonLinears = nonLinears
        self.tracking = tracking
    }
}
