/// A clock that a caller may move forward itself, without suspending: what `sleep(until:)` does once it checked for
/// cancellation. The playback engine steps such a clock instead of sleeping on it (a fleet replays hundreds of frames
/// a session, and each sleep is a hop to the task's executor and back); a clock that measures real time cannot.
public protocol SteppableClock: Clock where Duration == Swift.Duration {
    /// Moves the clock to `instant` unless it is there already; never back.
    func step(to instant: Instant)
}
