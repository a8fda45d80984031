import PlayerEngine

/// Decides whether an event's tracking URLs fire, by the session's repeat policies: pause/resume/mute/unmute on
/// every occurrence or only the first; one-shot tracking again on a replay or not (`rewind` always fires).
struct TrackingGate {
    let repeatTracking: SessionConfiguration.RepeatTracking
    let replayTracking: SessionConfiguration.ReplayTracking
    private var seen: Set<PlaybackEvent.Name> = []

    init(repeatTracking: SessionConfiguration.RepeatTracking, replayTracking: SessionConfiguration.ReplayTracking) {
        self.repeatTracking = repeatTracking
        self.replayTracking = replayTracking
    }

    static let repeatable: Set<PlaybackEvent.Name> = [.pause, .resume, .mute, .unmute]
    static let oneShot: Set<PlaybackEvent.Name> = [.loaded, .impression, .creativeView, .start, .firstQuartile, .midpoint,
                                                   .thirdQuartile, .complete, .progress, .skip, .iconShown]

    mutating func fires(_ event: PlaybackEvent) -> Bool {
        defer { seen.insert(event.name) }
        if Self.repeatable.contains(event.name) { return repeatTracking == .every || !seen.contains(event.name) }
        if event.play > 1 && Self.oneShot.contains(event.name) { return replayTracking == .all }
        return true
    }
}
