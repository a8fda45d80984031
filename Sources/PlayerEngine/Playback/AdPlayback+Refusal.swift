extension AdPlayback {
    /// Why `action` cannot be done at `clock`, or nil when it can: the player's UI rules (the app must be active,
    /// the skip control must show, the close delay must have run, a veto may refuse).
    func refusal(of action: UserAction, at clock: Duration) -> PlaybackEvent.Refusal? {
        let userFacing: Set<UserAction> = [.pause, .resume, .mute, .unmute, .skip, .click, .close, .endcardClick, .replay, .iconClick]
        if userFacing.contains(action) && (!appActive || !appForeground) { return .appNotActive }
        switch action {
        case .pause:
            if !inVideo { return .noVideoPlaying }
            return reasons.contains(.user) ? .alreadyPaused : nil
        case .resume:
            return reasons.contains(.user) ? nil : .notPausedByUser
        case .mute, .unmute:
            if !inVideo { return .noVideoPlaying }
            if reasons.contains(.clickThrough) { return .clickThroughOpen }
            return muted == (action == .mute) ? (muted ? .alreadyMuted : .notMuted) : nil
        case .skip:
            if !inVideo { return .noVideoPlaying }
            guard let offset = rules.skipOffset, offset < duration else { return .notSkippable }
            if reasons.contains(.clickThrough) { return .clickThroughOpen }
            if !skippableShown { return .notSkippableYet(offset: offset, playhead: playhead(at: clock)) }
            if !rules.endCardAfterSkip, let veto = rules.willClose, !veto(playhead(at: clock)) { return .vetoedByWillClose }
            return nil
        case .click:
            if !inVideo { return .noVideoPlaying }
            if reasons.contains(.clickThrough) { return .clickThroughAlreadyOpen }
            if let veto = rules.willBeginClickThrough, !veto(playhead(at: clock)) { return .vetoedByWillBeginClickThrough }
            return nil
        case .iconClick:
            if !inVideo { return .noVideoPlaying }
            guard let index = iconShowing else { return .noIconShowing }
            if reasons.contains(.clickThrough) { return .clickThroughAlreadyOpen }
            if rules.icons[index].hasClickThrough, let veto = rules.willBeginClickThrough, !veto(playhead(at: clock)) {
                return .vetoedByWillBeginClickThrough
            }
            return nil
        case .clickthroughClose:
            return reasons.contains(.clickThrough) ? nil : .noClickThroughOpen
        case .close:
            if reasons.contains(.clickThrough) { return .clickThroughOpen }
            if inVideo {
                switch rules.videoClose {
                case .anytime: break
                case .never: return .videoCannotBeClosed
                case let .after(time):
                    if playhead(at: clock) < time { return .closeControlAt(time) }
                }
            } else if phase == .endCard || phase == .replayScreen {
                if !closeShown {
                    let left = nextDeadline().map { $0 - clock } ?? closeDelayLeft
                    return .closeDelayRunning(left: left)
                }
            } else {
                return .nothingToClose
            }
            if let veto = rules.willClose, !veto(playhead(at: clock)) { return .vetoedByWillClose }
            return nil
        case .endcardClick:
            if phase != .endCard { return .noEndCard }
            if reasons.contains(.clickThrough) { return .clickThroughAlreadyOpen }
            if rules.hasEndCardClickThrough, let veto = rules.willBeginClickThrough, !veto(playhead(at: clock)) {
                return .vetoedByWillBeginClickThrough
            }
            return nil
        case .replay:
            return phase == .replayScreen ? nil : .noReplayScreen
        }
    }
}
