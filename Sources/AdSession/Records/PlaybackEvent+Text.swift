import PlayerEngine
import Primitives

extension PlaybackEvent.Detail {
    /// The detail in words: the JSON `detail` field, the text console, the timeline's labels and what an
    /// expectations file's `detail:` is matched against (`inactive`, `skip: the ad is not skippable`, `endCard`…).
    public var text: String {
        switch self {
        case let .suppression(reason): reason.rawValue
        case let .clickThrough(opened): opened ? "opened" : "none"
        case let .closed(screen): screen.rawValue
        case let .ended(cause): cause.text
        case let .forfeited(why): why.text
        case let .lifecycle(notification): notification.rawValue
        case let .refused(step, refusal): "\(step): \(refusal.text)"
        case let .abandoned(why): why.text
        case let .mediaError(error): error.description
        case let .viewport(percent): SessionInput.percentText(percent) + "%"
        }
    }
}

extension PlaybackEvent {
    /// `detail` in words, when there is one.
    public var detailText: String? { detail?.text }
}

extension PlaybackEvent.CloseCause {
    var text: String {
        switch self {
        case .skipped: "skipped"
        case .error: "error"
        case .endOfScript: "auto: end of script"
        case .playoutLimit: "playout limit"
        }
    }
}

extension PlaybackEvent.Forfeit {
    var text: String {
        switch self {
        case .skipped: "skipped"
        case .closedEarly: "closed early"
        case .mediaError: "media error"
        case .abandoned: "abandoned"
        case .stopped: "stopped at the playout limit"
        }
    }
}

extension PlaybackEvent.Abandonment {
    var text: String {
        switch self {
        case .appInBackground: "app in background"
        case .appInactive: "app inactive"
        case .clickThroughOpen: "click-through open"
        case .closeVetoed: "close vetoed"
        case .buffering: "stalled: the media stopped arriving"
        case .noMoreFrames: "no more frames"
        case let .suppressed(reasons): reasons.map(\.rawValue).joined(separator: ",")
        }
    }
}

extension PlaybackEvent.Refusal {
    var text: String {
        func seconds(_ duration: Duration) -> String { duration.millisecondText + " s" }
        switch self {
        case .appNotActive: return "the app is not active"
        case .noVideoPlaying: return "no video playing"
        case .alreadyPaused: return "already paused"
        case .notPausedByUser: return "not paused by the user"
        case .clickThroughOpen: return "the click-through is open"
        case .clickThroughAlreadyOpen: return "the click-through is already open"
        case .noClickThroughOpen: return "no click-through is open"
        case .alreadyMuted: return "already muted"
        case .notMuted: return "not muted"
        case .notSkippable: return "the ad is not skippable"
        case .vetoedByWillClose: return "vetoed by willClose"
        case .vetoedByWillBeginClickThrough: return "vetoed by willBeginClickThrough"
        case .videoCannotBeClosed: return "the video cannot be closed before it ends"
        case .nothingToClose: return "nothing to close"
        case .noEndCard: return "no end card is shown"
        case .noReplayScreen: return "no replay screen is shown"
        case .adAlreadyClosed: return "the ad has already closed"
        case .noIconShowing: return "no icon is showing"
        case let .notSkippableYet(offset, playhead): return "not skippable until \(seconds(offset)) (playhead \(seconds(playhead)))"
        case let .closeControlAt(time): return "the close control shows at \(seconds(time))"
        case let .closeDelayRunning(left): return "close delay running (\(seconds(left)) left)"
        case let .adNotPlayed(index): return "ad \(index) of the pod did not play"
        }
    }
}
