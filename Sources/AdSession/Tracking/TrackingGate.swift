import PlayerEngine

/// Decides whether an event's tracking URLs fire, by the session's repeat policies: pause/resume/mute/unmute on
/// every occurrence or only the first; one-shot tracking again on a replay or not (`rewind` always fires).
struct TrackingGate {
    let repeatTracking: SessionConfiguration.RepeatTracking
    let replayTracking: SessionConfiguration.ReplayTracking
    /// The events seen so far, a bit each (by `PlaybackEvent.Name.ordinal`): a session's gate is made and asked for
    /// every event of every session of a fleet, and a set of names allocated and grew each time.
    private var seen: UInt64 = 0

    init(repeatTracking: SessionConfiguration.RepeatTracking, replayTracking: SessionConfiguration.ReplayTracking) {
        self.repeatTracking = repeatTracking
        self.replayTracking = replayTracking
    }

    static let repeatable: Set<PlaybackEvent.Name> = [.pause, .resume, .mute, .unmute]
    static let oneShot: Set<PlaybackEvent.Name> = [.loaded, .impression, .creativeView, .start, .firstQuartile, .midpoint,
                                                   .thirdQuartile, .complete, .progress, .skip, .iconShown]

    mutating func fires(_ event: PlaybackEvent) -> Bool {
        // Each name's bit in `seen` is its ordinal's (at most 64 names: checked by a test).
        let bit = UInt64(1) << UInt64(event.name.ordinal)
        defer { seen |= bit }
        if Self.repeatable.contains(event.name) { return repeatTracking == .every || seen & bit == 0 }
        if event.play > 1 && Self.oneShot.contains(event.name) { return replayTracking == .all }
        return true
    }
}
