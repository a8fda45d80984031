/// Something that happened during a play, at an exact point of both timelines.
public struct PlaybackEvent: Sendable, Equatable {
    public enum Name: String, Sendable, Codable, CaseIterable {
        /// The media is open and its first frame decoded: ready to show (VAST 4.1 `loaded`).
        case loaded
        /// The first frame is on screen (Google's definition of a video impression).
        case impression
        /// The linear creative is visible; fired with `start`, as players do.
        case creativeView
        case start
        case firstQuartile, midpoint, thirdQuartile, complete
        /// A VAST `progress` offset was reached (see `PlaybackEvent.offset`).
        case progress
    }

    public var name: Name
    /// Media time played when the event happens (pauses and background time excluded).
    public var playhead: Duration
    /// Session time since the first frame was shown (keeps running while paused or in the background).
    public var clock: Duration
    /// For `progress`: the playhead offset it was scheduled at.
    public var offset: Duration?

    public init(name: Name, playhead: Duration, clock: Duration, offset: Duration? = nil) {
        self.name = name
        self.playhead = playhead
        self.clock = clock
        self.offset = offset
    }
}
