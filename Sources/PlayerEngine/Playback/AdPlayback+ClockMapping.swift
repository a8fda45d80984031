extension AdPlayback {
    /// `clock(forPlayhead:)` while playing, as one small value (`clockMapping`).
    struct ClockMapping {
        let baseClock: Duration
        let basePlayhead: Duration

        /// The session time at which the playhead reaches `playhead`: the clock runs straight while playing.
        func clock(forPlayhead playhead: Duration) -> Duration { baseClock + (playhead - basePlayhead) }
    }
}
