/// The app's lifecycle and the reasons playback is suppressed (paused, inactive, in the background, a click-through).
extension AdPlayback {
    mutating func lifecycle(_ notification: LifecycleEvent, at clock: Duration) -> [PlaybackEvent] {
        var events = [event(.appState, at: clock, detail: .lifecycle(notification))]
        let wasVisible = appActive && appForeground
        switch notification {
        case .willResignActive:
            appActive = false
            if inVideo { events += suppress(.inactive, at: clock) }
        case .didEnterBackground:
            // A background app is never active, even if the script skipped willResignActive (an Android onStop
            // without onPause): it plays again only on didBecomeActive.
            appForeground = false
            appActive = false
            if inVideo {
                events += suppress(.background, at: clock)
                events += suppress(.inactive, at: clock)
            }
        case .willEnterForeground:
            // Not a resume: the app is still inactive until didBecomeActive (the Adcash SDK resumed here, and so
            // kept playing under Control Center).
            appForeground = true
            events += release(.background, at: clock)
        case .didBecomeActive:
            appActive = true
            events += release(.inactive, at: clock)
        }
        // The end card's close countdown runs only while the app is visible and active.
        if phase == .endCard || phase == .replayScreen, !closeShown {
            let visible = appActive && appForeground
            if wasVisible, !visible, let start = closeCountdownStart {
                closeDelayLeft = max(.zero, closeDelayLeft - (clock - start))
                closeCountdownStart = nil
            } else if !wasVisible, visible {
                closeCountdownStart = clock
            }
        }
        return events
    }

    mutating func suppress(_ reason: SuppressionReason, at clock: Duration) -> [PlaybackEvent] {
        guard inVideo, !reasons.contains(reason) else { return [] }
        reasons.insert(reason)
        guard phase == .playing else { return [] }
        basePlayhead = playhead(at: clock)
        baseClock = clock
        phase = .suppressed
        return [event(.pause, at: clock, detail: .suppression(reason))]
    }

    mutating func release(_ reason: SuppressionReason, at clock: Duration) -> [PlaybackEvent] {
        guard reasons.remove(reason) != nil, phase == .suppressed, reasons.isEmpty else { return [] }
        phase = .playing
        baseClock = clock
        return [event(.resume, at: clock, detail: .suppression(reason))]
    }
}
