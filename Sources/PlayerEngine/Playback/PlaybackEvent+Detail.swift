extension PlaybackEvent {
    /// Why or how an event happened, as values: consumers match on them, and the words people read are made by the
    /// rendering layer (`AdSession`'s `PlaybackEvent.Detail.text`, which the JSON `detail` field and expectations
    /// files use).
    public enum Detail: Sendable, Equatable {
        /// `pause`: the reason playback stopped; `resume`: the last reason to end.
        case suppression(SuppressionReason)
        /// `click`, `endCardClick`: whether a click-through opened.
        case clickThrough(opened: Bool)
        /// `closeLinear`: what the viewer closed.
        case closed(Screen)
        /// `close`: why the ad is gone, when it was not a plain close by the viewer.
        case ended(CloseCause)
        /// `rewardForfeited`: why no reward was earned.
        case forfeited(Forfeit)
        /// `appState`: the lifecycle notification.
        case lifecycle(LifecycleEvent)
        /// `rejected`: the action (or the script step, as written) and why it was refused.
        case refused(step: String, Refusal)
        /// `abandoned`: why nothing could end the session.
        case abandoned(Abandonment)
        /// `error`: the media's error.
        case mediaError(MediaError)
        /// `viewport`: the percent of the ad's pixels in view from now on.
        case viewport(Double)
    }

    /// What `closeLinear` closed.
    public enum Screen: String, Sendable, Equatable {
        /// The video before its end, the end card, or the replay screen.
        case video, endCard, replayScreen
    }

    /// Why `close` came without the viewer closing the ad.
    public enum CloseCause: String, Sendable, Equatable {
        /// The viewer skipped the video, or the media failed.
        case skipped, error
        /// The script had nothing left; the simulated user closed the screen once its close control showed.
        case endOfScript
        /// The player stopped the ad at its break's playout limit (an HLS interstitial's `X-PLAYOUT-LIMIT`).
        case playoutLimit
    }

    /// Why the reward was forfeited.
    public enum Forfeit: String, Sendable, Equatable {
        /// The video was skipped, closed before the reward threshold, failed, the session was abandoned, or the player
        /// stopped it at a playout limit.
        case skipped, closedEarly, mediaError, abandoned, stopped
    }

    /// Why a session ended with nothing left to end it.
    public enum Abandonment: Sendable, Equatable {
        /// Playback was suppressed by the app in the background, the app inactive, an open click-through, or a vetoed
        /// close, and no input was left to end it.
        case appInBackground, appInactive, clickThroughOpen, closeVetoed
        /// The video was stalled waiting for media that never arrives (a simulated network whose rate dropped to 0).
        case buffering
        /// The video ran out of frames while playing.
        case noMoreFrames
        /// The video was suppressed for these reasons, in order, when input ran out.
        case suppressed([SuppressionReason])
    }

    /// Why an action was refused.
    public enum Refusal: Sendable, Equatable {
        /// The state that made the action impossible, named by the case (the app is not active, no video is playing,
        /// …).
        case appNotActive, noVideoPlaying, alreadyPaused, notPausedByUser, clickThroughOpen, clickThroughAlreadyOpen
        /// The state that made the action impossible or the veto that refused it (`willClose`,
        /// `willBeginClickThrough`).
        case noClickThroughOpen, alreadyMuted, notMuted, notSkippable, vetoedByWillClose, vetoedByWillBeginClickThrough
        /// The control or screen the action needs is not there, or the ad is already closed.
        case videoCannotBeClosed, nothingToClose, noEndCard, noReplayScreen, adAlreadyClosed, noIconShowing
        /// The skip control shows at `offset`; the playhead was at `playhead`.
        case notSkippableYet(offset: Duration, playhead: Duration)
        /// `--video-close 5s`: the close control shows at this playhead.
        case closeControlAt(Duration)
        /// The end card's close delay has this long left.
        case closeDelayRunning(left: Duration)
        /// A step written for ad K of a pod (`skip@ad2+1`) whose ad never played (it failed, or the pod ended first).
        case adNotPlayed(Int)
    }
}
