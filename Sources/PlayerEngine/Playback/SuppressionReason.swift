/// Why playback is not advancing. Playback resumes only when none is left.
public enum SuppressionReason: String, Sendable, Codable, CaseIterable, Comparable {
    /// The user paused.
    case user
    /// The app resigned active (Control Center, an incoming call) but is still visible.
    case inactive
    /// The app is in the background.
    case background
    /// The click-through page is open over the ad.
    case clickThrough

    public static func < (lhs: Self, rhs: Self) -> Bool { allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)! }
}
