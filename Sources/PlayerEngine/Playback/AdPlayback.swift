/// The rewarded ad session as a pure state machine: no clock, no I/O. It takes inputs at session-clock times and
/// returns the events they cause; `nextDeadline()` says when something falls due without input, so a driver can
/// sleep exactly until then.
///
/// Phases: loading → playing ⇄ suppressed → (complete | skip → end card or replay screen) | close | failure → closed.
/// Being paused by the user, the app resigning active or going to the background, and an open click-through are
/// *reasons* playback is suppressed, not separate states; playback resumes only when none is left. The playhead is
/// `basePlayhead + (clock − baseClock)` while playing; every suppression re-bases it, so time paused or in the
/// background never counts as played.
///
/// Its state is changed only by its own methods, in this file, `AdPlayback+Actions.swift` (what the user does) and
/// `AdPlayback+Lifecycle.swift` (the app's lifecycle and the reasons playback is suppressed); the rest of
/// `PlayerEngine` reads it.
public struct AdPlayback: Sendable {
    /// Where the session is: loading, the video playing or suppressed, the end card or replay screen, or closed.
    public enum Phase: String, Sendable, Codable { case loading, playing, suppressed, endCard, replayScreen, closed }
    /// How the video part ended.
    /// How the ad's play ended: `abandoned` when nothing could end it (no more frames or input while it was
    /// playing or suppressed; it was `null` before, which a summary showed as "completed").
    public enum Ending: String, Sendable, Codable { case completed, skipped, closedEarly, failed, abandoned, stopped, terminated }

    /// The ad's rules: duration, skip offset, reward, close controls, end card, icons, viewability.
    public let rules: PlaybackRules
    /// The video's duration; quartiles are at 25/50/75/100 % of it.
    public let duration: Duration
    /// The current phase; `.loading` until the first frame.
    public internal(set) var phase: Phase = .loading
    /// Why playback is suppressed now (user pause, inactive, background, click-through); empty while playing.
    public internal(set) var reasons: Set<SuppressionReason> = []
    /// Whether the player is muted.
    public internal(set) var muted = false
    /// 1 for the first play; a replay starts play 2.
    public internal(set) var play = 1
    /// The reward has been granted (`rewarded` fired).
    public internal(set) var rewardGranted = false
    /// The user was told no reward was earned (a skip, an early close, a failure, an abandoned session): final, a
    /// replay cannot earn it back, and `rewardForfeited` is said once.
    public internal(set) var rewardForfeited = false
    /// How the ad's play ended; nil while it goes on.
    public internal(set) var ending: Ending?
    /// The app is active (no `willResignActive` without a `didBecomeActive` after it).
    public internal(set) var appActive = true
    /// The app is in the foreground (no `didEnterBackground` without a `willEnterForeground` after it).
    public internal(set) var appForeground = true
    /// Stalled waiting for media (a simulated network): the clock runs, the playhead does not. Not a suppression
    /// reason: no pause or resume tracking, and a user's pause and resume go on as usual on top of it.
    public internal(set) var buffering = false
    /// The share of the ad's pixels in view, 0–100 (`viewport` steps).
    public internal(set) var viewport: Double
    /// `viewable`, `notViewable` or `viewUndetermined` has fired: viewability is decided once per ad, at the latest
    /// when its execution ends (the first play's complete, skip, close or failure).
    public internal(set) var viewabilityDecided: Bool
    /// Where the current run of played video in view began (a playhead), while one runs.
    var viewRunStart: Duration?

    var milestones: Milestones
    /// Each icon's state in this play.
    var icons: [IconState]
    enum IconState: Equatable { case pending, shown, gone }
    var skippableShown = false
    var basePlayhead: Duration = .zero
    var baseClock: Duration = .zero
    var startPlayhead: Duration = .zero
    var screenShownAt: Duration?
    var closeShown = false
    /// The end card's close countdown: when it last started running (nil while the app is not active, so the
    /// countdown waits as a phone's timer on a hidden screen would) and how much of the delay is left.
    var closeCountdownStart: Duration?
    var closeDelayLeft: Duration = .zero

    /// A session in `.loading` for an ad with `rules`, whose video lasts `duration`.
    public init(rules: PlaybackRules, duration: Duration) {
        self.rules = rules
        self.duration = duration
        milestones = Milestones(duration: duration, progressOffsets: rules.progressOffsets)
        icons = Array(repeating: .pending, count: rules.icons.count)
        muted = rules.startsMuted
        viewport = rules.initialViewport
        viewabilityDecided = rules.viewability == .off
    }

    // MARK: - Viewability

    /// The ad counts as in view: at least half its pixels (MRC), the app active and in front, no click-through over it.
    var inView: Bool {
        viewport >= PlaybackRules.viewableShare && appActive && appForeground && !reasons.contains(.clickThrough)
    }

    /// Played time counts toward viewability now: measured, undecided, the video advancing (not paused, suppressed
    /// or stalled) and in view, in the first play (a replay's content was already played).
    var viewCounting: Bool { rules.viewability == .measured && !viewabilityDecided && advancing && inView && play == 1 }

    /// The playhead at which the current run in view makes the ad viewable, if it can before the end.
    var viewableAt: Duration? {
        guard viewCounting, let start = viewRunStart else { return nil }
        let at = start + PlaybackRules.viewableTime
        return at <= duration ? at : nil
    }

    /// Starts a run in view, or ends it, after anything that changes whether played time counts.
    mutating func updateViewRun(at clock: Duration) {
        if viewCounting {
            if viewRunStart == nil { viewRunStart = playhead(at: clock) }
        } else {
            viewRunStart = nil
        }
    }

    /// The ad's execution ended undecided: `notViewable` (measured) or `viewUndetermined`, once.
    mutating func decideViewability(at clock: Duration) -> [PlaybackEvent] {
        guard !viewabilityDecided else { return [] }
        viewabilityDecided = true
        viewRunStart = nil
        return [event(rules.viewability == .measured ? .notViewable : .viewUndetermined, at: clock)]
    }

    // MARK: - Time

    var inVideo: Bool { phase == .playing || phase == .suppressed }
    /// The playhead moves: playing, and not stalled.
    var advancing: Bool { phase == .playing && !buffering }

    /// Media time played at session time `clock`.
    public func playhead(at clock: Duration) -> Duration {
        guard advancing else { return basePlayhead }
        return min(duration, basePlayhead + (clock - baseClock))
    }

    /// The session time at which the playhead reaches `playhead`, while playing.
    public func clock(forPlayhead playhead: Duration) -> Duration? {
        clockMapping?.clock(forPlayhead: playhead)
    }

    /// `clock(forPlayhead:)` as one small value, while playing (nil otherwise): for mapping many playheads at once
    /// without the machine.
    var clockMapping: ClockMapping? { advancing ? ClockMapping(baseClock: baseClock, basePlayhead: basePlayhead) : nil }

    /// When something falls due without input: the next boundary while playing, or the close control.
    public func nextDeadline() -> Duration? {
        switch phase {
        case .playing:
            return buffering ? nil : nextBoundary().flatMap { clock(forPlayhead: $0) }
        case .endCard, .replayScreen:
            guard !closeShown, let start = closeCountdownStart else { return nil }
            return start + closeDelayLeft
        case .loading, .suppressed, .closed:
            return nil
        }
    }

    /// The next playhead boundary: a quartile, progress offset, the skip offset or the reward threshold.
    func nextBoundary() -> Duration? {
        // Called once per frame: no allocation.
        var earliest = milestones.next
        if let skip = rules.skipOffset, !skippableShown, skip < duration {
            let at = max(skip, startPlayhead)
            earliest = earliest.map { min($0, at) } ?? at
        }
        if rules.reward != nil, !rewardGranted, !rewardForfeited, let threshold = rules.rewardPlayhead(duration: duration) {
            let at = max(threshold, startPlayhead)
            earliest = earliest.map { min($0, at) } ?? at
        }
        for index in icons.indices {
            guard let at = iconTransition(index) else { continue }
            earliest = earliest.map { min($0, at) } ?? at
        }
        if let at = viewableAt { earliest = earliest.map { min($0, at) } ?? at }
        return earliest
    }

    /// The playhead of icon `index`'s next change in this play: when it shows, then when it goes; nil when nothing is
    /// left (an icon whose offset is not before the end never shows; one whose time runs past the end goes with the
    /// video, silently).
    func iconTransition(_ index: Int) -> Duration? {
        let rule = rules.icons[index]
        switch icons[index] {
        case .pending:
            return rule.offset < duration ? max(rule.offset, startPlayhead) : nil
        case .shown:
            guard let length = rule.duration else { return nil }
            let end = max(rule.offset, startPlayhead) + length
            return end < duration ? end : nil
        case .gone:
            return nil
        }
    }

    /// Icons shown and hidden at or before `boundary`, in icon order.
    mutating func fireIcons(upTo boundary: Duration, clock: Duration) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        for index in icons.indices {
            while let at = iconTransition(index), at <= boundary {
                let shows = icons[index] == .pending
                icons[index] = shows ? .shown : .gone
                var change = event(shows ? .iconShown : .iconHidden, at: clock)
                change.icon = index
                events.append(change)
            }
        }
        return events
    }

    /// The icon a click lands on: the first one showing.
    var iconShowing: Int? { inVideo ? icons.firstIndex(of: .shown) : nil }

    // MARK: - Inputs

    /// The first frame is on screen at `clock` (session zero); its media time is `playhead`.
    public mutating func begin(at clock: Duration, playhead: Duration = .zero) -> [PlaybackEvent] {
        guard phase == .loading else { return [] }
        phase = .playing
        basePlayhead = playhead
        startPlayhead = playhead
        baseClock = clock
        var events = [PlaybackEvent.Name.loaded, .impression, .creativeView, .start].map { event($0, at: clock) }
        updateViewRun(at: clock)
        events += advance(to: clock)
        return events
    }

    /// Fires everything due at or before `clock`, in playhead order, each at its own time.
    public mutating func advance(to clock: Duration) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        while true {
            if phase == .playing, let boundary = nextBoundary(), let due = self.clock(forPlayhead: boundary), due <= clock {
                events += fireBoundaries(at: boundary, clock: due)
            } else if let due = nextDeadline(), phase == .endCard || phase == .replayScreen, due <= clock {
                closeShown = true
                events.append(event(.closeShown, at: due))
            } else {
                return events
            }
        }
    }

    mutating func fireBoundaries(at boundary: Duration, clock: Duration) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        var completed = false
        if let at = viewableAt, at <= boundary {
            viewabilityDecided = true
            viewRunStart = nil
            events.append(event(.viewable, at: clock))
        }
        for fired in milestones.advance(to: boundary) {
            events.append(event(fired.name, at: clock, offset: fired.offset))
            if fired.name == .complete { completed = true }
        }
        events += fireIcons(upTo: boundary, clock: clock)
        if let skip = rules.skipOffset, !skippableShown, skip < duration, max(skip, startPlayhead) <= boundary {
            skippableShown = true
            events.append(event(.skippable, at: clock))
        }
        if let reward = rules.reward, !rewardGranted, !rewardForfeited, let at = rules.rewardPlayhead(duration: duration), max(at, startPlayhead) <= boundary {
            rewardGranted = true
            events.append(event(.rewarded, at: clock, reward: reward))
        }
        if completed {
            basePlayhead = duration
            baseClock = clock
            ending = .completed
            if let reward = rules.reward, !rewardGranted, !rewardForfeited, rules.rewardThreshold != .later {
                rewardGranted = true
                events.append(event(.rewarded, at: clock, reward: reward))
            }
            events += decideViewability(at: clock)
            events += showScreen(at: clock)
        }
        return events
    }

    /// An action or lifecycle notification at `clock`. Refused actions come back as one `rejected` event.
    public mutating func handle(_ input: SessionInput, at clock: Duration) -> [PlaybackEvent] {
        var events = advance(to: clock)
        switch input {
        case let .lifecycle(notification): events += lifecycle(notification, at: clock)
        case let .action(action): events += perform(action, at: clock)
        case let .viewport(percent):
            viewport = percent
            events.append(event(.viewport, at: clock, detail: .viewport(percent)))
        case .playoutLimit: events += stop(at: clock)
        case .terminate: terminate(at: clock)
        }
        updateViewRun(at: clock)
        return events
    }

    /// A scripted input that came after the ad had closed: reported at `clock` (the close) as refused, so a script
    /// step never disappears silently.
    public func ignored(_ step: String, at clock: Duration) -> PlaybackEvent {
        event(.rejected, at: clock, detail: .refused(step: step, .adAlreadyClosed))
    }

    /// The next frame has not arrived at `clock`: playback stalls (`bufferStart`); the playhead holds until
    /// `finishBuffering`. Only while the video plays or is suppressed.
    public mutating func startBuffering(at clock: Duration) -> [PlaybackEvent] {
        guard inVideo, !buffering else { return [] }
        basePlayhead = playhead(at: clock)
        baseClock = clock
        buffering = true
        updateViewRun(at: clock)
        return [event(.bufferStart, at: clock)]
    }

    /// Enough media has arrived at `clock`: the stall ends (`bufferFinish`), and the playhead moves again if nothing
    /// else holds it.
    public mutating func finishBuffering(at clock: Duration) -> [PlaybackEvent] {
        guard buffering else { return [] }
        buffering = false
        baseClock = clock
        updateViewRun(at: clock)
        return [event(.bufferFinish, at: clock)]
    }

    /// A real-time decoder stall of `length` ending at `clock`: the viewer saw a frozen frame, so the playhead is
    /// held for that long.
    public mutating func stall(_ length: Duration, at clock: Duration) {
        guard phase == .playing, length > .zero else { return }
        baseClock += length
        // A frozen picture breaks the run of continuous seconds in view: it starts again here.
        viewRunStart = nil
        updateViewRun(at: clock)
    }

    /// The media failed at `clock` (truncated data, a lost connection): the ad ends there with an `error` event
    /// (`detail`: the message), the reward is forfeited, and the session closes without closeLinear (nobody
    /// closed it).
    public mutating func fail(_ error: MediaError, at clock: Duration) -> [PlaybackEvent] {
        guard phase != .closed else { return [] }
        let wasInVideo = inVideo
        var events: [PlaybackEvent] = []
        if wasInVideo {
            basePlayhead = playhead(at: clock)
            baseClock = clock
        }
        phase = .closed
        buffering = false
        ending = .failed
        events.append(event(.error, at: clock, detail: .mediaError(error)))
        if wasInVideo { events += decideViewability(at: clock) }
        events += forfeit(at: clock, .mediaError)
        // In a pod the next ad plays: the failure ends this ad, not the session.
        if !rules.handsOver { events.append(event(.close, at: clock, detail: .ended(.error))) }
        return events
    }

    /// Nothing more will come (no frames to wait for, no scripted input). A screen waiting for its close is closed
    /// as a user would once the control shows, if the user can (the app active, no click-through open, no veto);
    /// otherwise, and for a suppressed video, the session is abandoned.
    public mutating func finish(at clock: Duration) -> [PlaybackEvent] {
        var events = advance(to: clock)
        switch phase {
        case .endCard, .replayScreen:
            if let why = blockedScreen {
                events.append(event(.abandoned, at: clock, detail: .abandoned(why)))
                phase = .closed
                return events
            }
            let at = max(clock, nextDeadline() ?? clock)
            events += advance(to: at)
            if let veto = rules.willClose, !veto(playhead(at: at)) {
                events.append(event(.rejected, at: at, detail: .refused(step: UserAction.close.rawValue, .vetoedByWillClose)))
                events.append(event(.abandoned, at: at, detail: .abandoned(.closeVetoed)))
                phase = .closed
                return events
            }
            events += close(at: at, cause: .endOfScript)
        case .suppressed, .playing, .loading:
            let why: PlaybackEvent.Abandonment = !reasons.isEmpty ? .suppressed(reasons.sorted()) : buffering ? .buffering : .noMoreFrames
            events.append(event(.abandoned, at: clock, detail: .abandoned(why)))
            if phase != .loading { events += decideViewability(at: clock) }
            events += forfeit(at: clock, .abandoned)
            ending = .abandoned
            phase = .closed
        case .closed:
            break
        }
        return events
    }

    /// Why the simulated user cannot close the end card or replay screen now, or nil.
    var blockedScreen: PlaybackEvent.Abandonment? {
        if !appForeground { return .appInBackground }
        if !appActive { return .appInactive }
        if reasons.contains(.clickThrough) { return .clickThroughOpen }
        return nil
    }

    // MARK: - Events

    func event(_ name: PlaybackEvent.Name, at clock: Duration, offset: Duration? = nil, detail: PlaybackEvent.Detail? = nil, reward: Reward? = nil) -> PlaybackEvent {
        PlaybackEvent(name: name, playhead: playhead(at: clock), clock: clock, offset: offset, detail: detail, play: play, reward: reward)
    }

}
