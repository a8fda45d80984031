/// Something that happened during a session, at an exact point of both timelines.
public struct PlaybackEvent: Sendable, Equatable {
    /// What happened; the raw value is the event's name in JSON output and in expectations.
    public enum Name: String, Sendable, Codable, CaseIterable {
        /// The media is open and its first frame decoded: ready to show (VAST 4.1 `loaded`).
        case loaded
        /// The first frame is on screen (Google's definition of a video impression).
        case impression
        /// The linear creative is visible; fired with `start`, as players do.
        case creativeView
        /// Playback of the video starts: fired with `impression` and `creativeView` at the first frame of each play.
        case start
        /// 25, 50, 75 and 100 % of the ad's duration played, at exactly those playheads.
        case firstQuartile, midpoint, thirdQuartile, complete
        /// A VAST `progress` offset was reached (see `offset`).
        case progress
        /// The skip control appears (the playhead reached the skip offset).
        case skippable
        /// The next frame has not arrived (a simulated network, `--network`): playback stalls to buffer; the clock
        /// runs, the playhead does not. No VAST tracking (OMID's name; IMA's `AD_BUFFERING`).
        case bufferStart
        /// Enough media has arrived again (`--rebuffer`): the stall ends.
        case bufferFinish
        /// An icon shows (`icon`: its index in `PlaybackRules.icons`): its IconViewTracking fires.
        case iconShown
        /// An icon's `duration` has played: it is gone.
        case iconHidden
        /// The icon was clicked (`icon`): IconClickTracking fires and the IconClickThrough opens (`detail` = "opened" or
        /// "none"), suppressing playback until `clickthroughClose` as a click-through does.
        case iconClick
        /// Playback stopped for a reason (`detail`: user, inactive, background, clickThrough); fired on the change
        /// from playing to suppressed, as IMA and Prebid fire pause for lifecycle pauses.
        case pause
        /// Playback goes on: the last reason is gone.
        case resume
        /// The player was muted or unmuted (a user action).
        case mute, unmute
        /// The viewer skipped the video (only once it is skippable).
        case skip
        /// The video was clicked: ClickTracking fires and the ClickThrough opens (`detail` = "opened" or "none").
        case click
        /// The click-through page was closed.
        case clickThroughClose
        /// The viewer closed the linear unit: the video early (`detail` "video") or the end card ("endCard").
        case closeLinear
        /// The ad is gone; the session ends.
        case close
        /// The companion is shown as the end card (its creativeView fires).
        case endCardShown
        /// The end card was clicked (`detail`: whether its CompanionClickThrough opened).
        case endCardClick
        /// The close control appears (after the close delay).
        case closeShown
        /// No companion: the replay screen (close or replay) is shown.
        case replayShown
        /// A replay starts a new play from 0 (`play` counts plays).
        case rewind
        /// The reward is granted (`reward`), exactly once.
        case rewarded
        /// The ad ended before the reward threshold: the user is told no reward was earned.
        case rewardForfeited
        /// An app lifecycle notification arrived (`detail`: willResignActive, didEnterBackground, …).
        case appState
        /// An action was refused (`detail` says which and why), like a real UI would.
        case rejected
        /// The session ended with playback suppressed and nothing left to resume it (`detail` says why).
        case abandoned
        /// The media failed during playback (`detail`: the message); the ad ends here. Its VAST Error URLs are the
        /// session's to fire, with the code.
        case error
        /// The share of the ad's pixels in view changed (`detail`: the percent): a `viewport` step.
        case viewport
        /// The MRC rule is met: 50 % of the pixels in view for 2 continuous seconds of played video (fires the
        /// `<Viewable>` URLs), at the playhead where the second second completes.
        case viewable
        /// The ad's execution ended (complete, skip, close, error) without being viewable (`<NotViewable>`).
        case notViewable
        /// The ad's execution ended and its viewability is not measured (`--viewability undetermined`:
        /// `<ViewUndetermined>`).
        case viewUndetermined

        /// The case's place in `allCases` (declaration order). Tables by event are indexed by it, and it is what a
        /// name hashes: a String-backed enum otherwise hashes its raw string (RawRepresentable's default), paid for
        /// every event of every session of a fleet.
        public var ordinal: Int {
            switch self {
            case .loaded: 0
            case .impression: 1
            case .creativeView: 2
            case .start: 3
            case .firstQuartile: 4
            case .midpoint: 5
            case .thirdQuartile: 6
            case .complete: 7
            case .progress: 8
            case .skippable: 9
            case .bufferStart: 10
            case .bufferFinish: 11
            case .iconShown: 12
            case .iconHidden: 13
            case .iconClick: 14
            case .pause: 15
            case .resume: 16
            case .mute: 17
            case .unmute: 18
            case .skip: 19
            case .click: 20
            case .clickThroughClose: 21
            case .closeLinear: 22
            case .close: 23
            case .endCardShown: 24
            case .endCardClick: 25
            case .closeShown: 26
            case .replayShown: 27
            case .rewind: 28
            case .rewarded: 29
            case .rewardForfeited: 30
            case .appState: 31
            case .rejected: 32
            case .abandoned: 33
            case .error: 34
            case .viewport: 35
            case .viewable: 36
            case .notViewable: 37
            case .viewUndetermined: 38
            }
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
    }

    /// What happened.
    public var name: Name
    /// Media time played when the event happens (pauses and background time excluded).
    public var playhead: Duration
    /// Session time since the first frame was shown (keeps running while paused or in the background).
    public var clock: Duration
    /// For `progress`: the playhead offset it was scheduled at.
    public var offset: Duration?
    /// Why or how: the suppression reason, the rejected action and its reason, the lifecycle notification… (typed;
    /// see `Detail`).
    public var detail: Detail?
    /// 1 for the first play, 2 after the first replay, …
    public var play: Int
    /// For `rewarded`: what was granted.
    public var reward: Reward?
    /// For `iconShown`, `iconHidden` and `iconClick`: the icon's index in `PlaybackRules.icons`.
    public var icon: Int?
    /// For a click that opened a page (`click`, `endCardClick`): the URL it opened, macros expanded for the click's
    /// moment. The engine knows no URLs: the session layer fills it in before anyone sees the event.
    public var clickThroughURL: String?
    /// The ad of the break the event belongs to (its place in the pod, id and sequence). The engine plays one ad at a
    /// time: the session layer fills it in.
    public var ad: BreakAd?
    /// In a VMAP session: the 1-based place, in play order, of the ad break it happened in.
    public var adBreak: Int?

    /// An event of the first play unless `play` says otherwise; `icon` and `ad` start nil.
    public init(name: Name, playhead: Duration, clock: Duration, offset: Duration? = nil, detail: Detail? = nil, play: Int = 1, reward: Reward? = nil,
                clickThroughURL: String? = nil) {
        self.name = name
        self.playhead = playhead
        self.clock = clock
        self.offset = offset
        self.detail = detail
        self.play = play
        self.reward = reward
        self.clickThroughURL = clickThroughURL
    }
}

