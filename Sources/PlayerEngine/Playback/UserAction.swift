/// What the user does to the ad, as a script names it.
public enum UserAction: String, Sendable, Codable, CaseIterable {
    /// The actions a script names with these words; each is handled by `AdPlayback`, which refuses those the state does
    /// not allow (`rejected`).
    case pause, resume, mute, unmute, skip, click, clickthroughClose, close, endcardClick, replay
    /// A click on the icon shown (the first one, when several show): its IconClickTracking fires and its
    /// IconClickThrough opens like a click-through.
    case iconClick
}
