

/// One input to a session at a session-clock time.
public enum SessionInput: Sendable, Equatable {
    /// A user action.
    case action(UserAction)
    /// An app lifecycle notification.
    case lifecycle(LifecycleEvent)
    /// The share of the ad's pixels in view from now on, 0–100 (`viewport=30`): the page or app scrolled or covered
    /// part of it.
    case viewport(Double)
    /// The player stops the ad where it is (an HLS interstitial's `X-PLAYOUT-LIMIT`): nothing more of it plays or
    /// fires, and it ends `stopped`. Not a script word: the session adds it.
    case playoutLimit
    /// The app's process is killed (`terminate`, as Android destroys a backgrounded activity): nothing more plays,
    /// fires or is reported; it ends `terminated`.
    case terminate

    /// Parses a script word: an action, a lifecycle name, an Android alias (onPause → willResignActive, onStop →
    /// didEnterBackground, onStart → willEnterForeground, onResume → didBecomeActive) or a shorthand
    /// (`background`, `foreground`: the natural pair). Case-insensitive.
    public static func parse(_ word: String) -> [SessionInput]? {
        let key = word.lowercased()
        if key.hasPrefix("viewport=") {
            guard let percent = Double(key.dropFirst("viewport=".count)), percent.isFinite, (0...100).contains(percent) else { return nil }
            return [.viewport(percent)]
        }
        if let action = UserAction.allCases.first(where: { $0.rawValue.lowercased() == key }) { return [.action(action)] }
        if let event = LifecycleEvent.allCases.first(where: { $0.rawValue.lowercased() == key }) { return [.lifecycle(event)] }
        switch key {
        case "onpause": return [.lifecycle(.willResignActive)]
        case "onstop": return [.lifecycle(.didEnterBackground)]
        case "onstart": return [.lifecycle(.willEnterForeground)]
        case "onresume": return [.lifecycle(.didBecomeActive)]
        case "background": return [.lifecycle(.willResignActive), .lifecycle(.didEnterBackground)]
        case "foreground": return [.lifecycle(.willEnterForeground), .lifecycle(.didBecomeActive)]
        case "terminate": return [.terminate]
        default: return nil
        }
    }

    /// The input as a script word (`mute`, `didEnterBackground`, `viewport=30`).
    public var name: String {
        switch self {
        case let .action(action): action.rawValue
        case let .lifecycle(event): event.rawValue
        case let .viewport(percent): "viewport=\(Self.percentText(percent))"
        case .playoutLimit: "playoutLimit"
        case .terminate: "terminate"
        }
    }

    /// `30`, `12.5`: a percent as written.
    public static func percentText(_ percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(percent)
    }
}

