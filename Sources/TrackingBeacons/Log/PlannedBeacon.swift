/// One tracking request as planned: the event's URL with its macros filled for the moment of the event. A dry run
/// plans and logs; only the dispatcher attempts, and each attempt is a `BeaconRecord`.
public struct PlannedBeacon: Sendable, Equatable {
    /// The VAST event (`impression`, `firstQuartile`, `error`, `progress`…).
    public var event: String
    /// Where the URL came from in the wrapper chain (`inline`, `wrapper 1 (AdServer)`).
    public var source: String
    /// The URL as written in the tag, macros and all.
    public var template: String
    /// The URL after macro expansion: what will be requested.
    public var url: String
    /// Ad playhead and session clock when the event happened.
    public var playhead: Duration
    /// Session clock when the event happened.
    public var clock: Duration
    /// Macros the template uses that vplay had no value for (left in the URL as written).
    public var unknownMacros: [String]
    /// In an ad pod: the 1-based place in the break of the ad the beacon belongs to; nil for a single ad and for
    /// what belongs to no one ad (the response's failures).
    public var ad: Int?
    /// A progress beacon's offset (playhead time it is due at); nil for every other event.
    public var offset: Duration?
    /// In a VMAP session: the 1-based place, in play order, of the ad break the beacon belongs to.
    public var adBreak: Int?

    /// A planned beacon; `ad` and `offset` start nil.
    public init(event: String, source: String, template: String, url: String, playhead: Duration, clock: Duration,
                unknownMacros: [String] = []) {
        self.event = event
        self.source = source
        self.template = template
        self.url = url
        self.playhead = playhead
        self.clock = clock
        self.unknownMacros = unknownMacros
    }
}

