/// App lifecycle notifications, with iOS names (Android aliases in `init(name:)`).
public enum LifecycleEvent: String, Sendable, Codable, CaseIterable {
    /// The iOS notifications a script names with these words; the app is inactive between the first and the last, in
    /// the background between the second and the third.
    case willResignActive, didEnterBackground, willEnterForeground, didBecomeActive
}
