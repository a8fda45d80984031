/// What the user does to the ad: each action refused or performed, and the events it causes.
extension AdPlayback {
    mutating func perform(_ action: UserAction, at clock: Duration) -> [PlaybackEvent] {
        if let refusal = refusal(of: action, at: clock) {
            return [event(.rejected, at: clock, detail: .refused(step: action.rawValue, refusal))]
        }
        switch action {
        case .pause: return suppress(.user, at: clock)
        case .resume: return release(.user, at: clock)
        case .mute:
            muted = true
            return [event(.mute, at: clock)]
        case .unmute:
            muted = false
            return [event(.unmute, at: clock)]
        case .skip: return skip(at: clock)
        case .click:
            let opens = rules.hasClickThrough
            var events = [event(.click, at: clock, detail: .clickThrough(opened: opens))]
            if opens { events += suppress(.clickThrough, at: clock) }
            return events
        case .clickthroughClose:
            if !inVideo {
                // The end card's CompanionClickThrough closes; the end card is back.
                reasons.remove(.clickThrough)
                return [event(.clickThroughClose, at: clock)]
            }
            return [event(.clickThroughClose, at: clock)] + release(.clickThrough, at: clock)
        case .close: return inVideo ? closeVideo(at: clock) : close(at: clock, cause: nil)
        case .iconClick:
            let index = iconShowing ?? 0
            let opens = rules.icons[index].hasClickThrough
            var click = event(.iconClick, at: clock, detail: .clickThrough(opened: opens))
            click.icon = index
            var events = [click]
            if opens { events += suppress(.clickThrough, at: clock) }
            return events
        case .endcardClick:
            let opens = rules.hasEndCardClickThrough
            if opens { reasons.insert(.clickThrough) }
            return [event(.endCardClick, at: clock, detail: .clickThrough(opened: opens))]
        case .replay: return replay(at: clock)
        }
    }

    /// The viewer skips: the ad ends (skipped), and the end card or the next ad of a pod follows when there is one.
    mutating func skip(at clock: Duration) -> [PlaybackEvent] {
        var events = [event(.skip, at: clock)]
        (basePlayhead, baseClock) = (playhead(at: clock), clock)
        ending = .skipped
        events += decideViewability(at: clock)
        events += forfeit(at: clock, .skipped)
        if rules.endCardAfterSkip || rules.handsOver {
            reasons.removeAll()
            events += showScreen(at: clock)
        } else {
            // Skipping ends the ad: `skip` is its tracking, not closeLinear (the viewer did not close it).
            phase = .closed
            buffering = false
            events.append(event(.close, at: clock, detail: .ended(.skipped)))
        }
        return events
    }

    /// The viewer closes the ad during its video: closeLinear, and the ad ends early.
    mutating func closeVideo(at clock: Duration) -> [PlaybackEvent] {
        (basePlayhead, baseClock) = (playhead(at: clock), clock)
        ending = .closedEarly
        buffering = false
        var events = [event(.closeLinear, at: clock, detail: .closed(.video))]
        events += decideViewability(at: clock)
        events += forfeit(at: clock, .closedEarly)
        phase = .closed
        events.append(event(.close, at: clock))
        return events
    }

    /// The player stops the ad where it is (a playout limit): during its video, no closeLinear (the viewer did not
    /// close it) and no complete; on its end card or replay screen, the screen goes. Nothing once it has closed.
    mutating func stop(at clock: Duration) -> [PlaybackEvent] {
        guard phase != .closed else { return [] }
        var events: [PlaybackEvent] = []
        if inVideo {
            (basePlayhead, baseClock) = (playhead(at: clock), clock)
            ending = .stopped
            buffering = false
            events += decideViewability(at: clock)
            events += forfeit(at: clock, .stopped)
        }
        phase = .closed
        events.append(event(.close, at: clock, detail: .ended(.playoutLimit)))
        return events
    }

    /// The app's process is killed where the ad is: nothing more plays or fires — no closeLinear, no close, no reward
    /// and no forfeit (a reward not granted yet is lost with the app). The ending is `terminated`.
    mutating func terminate(at clock: Duration) {
        guard phase != .closed else { return }
        if inVideo {
            (basePlayhead, baseClock) = (playhead(at: clock), clock)
            buffering = false
        }
        ending = .terminated
        phase = .closed
    }

    /// A replay from the replay screen: a new play from the start.
    mutating func replay(at clock: Duration) -> [PlaybackEvent] {
        play += 1
        milestones = Milestones(duration: duration, progressOffsets: rules.progressOffsets)
        icons = Array(repeating: .pending, count: rules.icons.count)
        skippableShown = false
        basePlayhead = startPlayhead
        baseClock = clock
        ending = nil
        screenShownAt = nil
        closeShown = false
        closeCountdownStart = nil
        phase = .playing
        // A new play: its first frame is shown again. Whether its one-shot tracking fires again is the
        // session's replay policy; the events always say what happened.
        var events = [PlaybackEvent.Name.rewind, .impression, .creativeView, .start].map { event($0, at: clock) }
        for reason in reasons.sorted() { reasons.remove(reason); events += suppress(reason, at: clock) }
        return events + advance(to: clock)
    }

    /// The viewer closes the end card or the replay screen: the ad is over.
    mutating func close(at clock: Duration, cause: PlaybackEvent.CloseCause?) -> [PlaybackEvent] {
        guard phase == .endCard || phase == .replayScreen else { return [] }
        let screen: PlaybackEvent.Screen = phase == .endCard ? .endCard : .replayScreen
        phase = .closed
        return [event(.closeLinear, at: clock, detail: .closed(screen)), event(.close, at: clock, detail: cause.map(PlaybackEvent.Detail.ended))]
    }

    /// Tells the user no reward was earned, once, if the ad is rewarded and the reward was not granted.
    mutating func forfeit(at clock: Duration, _ why: PlaybackEvent.Forfeit) -> [PlaybackEvent] {
        guard rules.reward != nil, !rewardGranted, !rewardForfeited else { return [] }
        rewardForfeited = true
        return [event(.rewardForfeited, at: clock, detail: .forfeited(why))]
    }

    mutating func showScreen(at clock: Duration) -> [PlaybackEvent] {
        buffering = false
        if rules.handsOver {
            // The next ad of the pod plays now: no screen, no close.
            phase = .closed
            return []
        }
        phase = rules.hasEndCard ? .endCard : .replayScreen
        screenShownAt = clock
        closeShown = false
        closeDelayLeft = rules.closeDelay
        closeCountdownStart = (appActive && appForeground) ? clock : nil
        var events = [event(rules.hasEndCard ? .endCardShown : .replayShown, at: clock)]
        if rules.closeDelay <= .zero {
            closeShown = true
            events.append(event(.closeShown, at: clock))
        }
        return events
    }
}
