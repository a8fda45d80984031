/// How a rewarded session behaves: the ad's facts and the player's policies.
public struct PlaybackRules: Sendable {
    /// When the reward is granted.
    public enum RewardThreshold: Sendable, Equatable {
        /// When the video completes (Prebid's default, AdMob's, Unity's "COMPLETED").
        case complete
        /// When this fraction of the duration has played (0…100).
        case percent(Double)
        /// When this much has played.
        case played(Duration)
        /// Not in this ad: a later ad of its pod grants it. An early end of this ad (skip, close, failure) still
        /// forfeits it.
        case later
    }

    /// When the viewer may close the video before it ends.
    public enum VideoClose: Sendable, Equatable {
        /// At any time ("non-skippable, but closeable", AdMob); an early close forfeits the reward.
        case anytime
        /// Once this much has played (a countdown before the close control shows).
        case after(Duration)
        /// Not before the end.
        case never
    }

    /// The media's duration; quartiles are at 25/50/75/100 % of it. nil: the engine takes the container's.
    public var duration: Duration?
    /// VAST progress offsets, resolved to playhead times.
    public var progressOffsets: [Duration] = []
    /// Where the skip control appears; nil = not skippable (VAST: no skipoffset means not skippable).
    public var skipOffset: Duration?
    /// What is granted; nil = not a rewarded ad (no reward events).
    public var reward: Reward?
    /// When the reward is granted; `.complete` by default.
    public var rewardThreshold: RewardThreshold = .complete
    /// When the viewer may close the video before it ends; `.anytime` by default.
    public var videoClose: VideoClose = .anytime
    /// A companion exists to show as the end card; without one the replay screen is shown.
    public var hasEndCard = false
    /// Show the end card after a skip too (the publisher's choice; "most major mobile SDKs" do, VAST 4.x §3.13).
    public var endCardAfterSkip = true
    /// Time before the end card's (or replay screen's) close control appears (`closeDelayLeft`). 0 by default.
    public var closeDelay: Duration = .zero
    /// Whether the video has a ClickThrough to open on click.
    public var hasClickThrough = true
    /// Whether the end card has a CompanionClickThrough to open on `endcardClick` (the click-through then covers the
    /// end card until `clickthroughClose`).
    public var hasEndCardClickThrough = false
    /// The Linear's icons (VAST 3.0+, e.g. AdChoices), in the order a click picks them: each shows from its `offset`
    /// for its `duration` of played video.
    public var icons: [IconRule] = []
    /// Vetoes for library users: return false to refuse (SAS SDK's `willClose`, `willBeginAction`).
    public var willClose: (@Sendable (Duration) -> Bool)?
    /// The veto for click-throughs (the video's and icons'): given the playhead, return false to refuse.
    public var willBeginClickThrough: (@Sendable (Duration) -> Bool)?
    /// Another ad of the pod follows: the end of this one's video (complete or skip) hands over to it at once, with
    /// no end card, replay screen or close (and a media failure ends this ad only).
    public var handsOver = false
    /// The player is already muted when the ad starts (an earlier ad of the pod was muted).
    public var startsMuted = false
    /// Whether and how the ad's viewability is decided (VAST `<ViewableImpression>`).
    public var viewability: Viewability = .off
    /// The share of the ad's pixels in view when it starts, 0–100 (a `viewport` step changes it): a rewarded ad is
    /// full screen.
    public var initialViewport: Double = 100

    /// Viewability, by the MRC rule for video: at least `viewableShare` % of the ad's pixels in view while
    /// `viewableTime` of continuous video plays.
    public enum Viewability: String, Sendable, CaseIterable {
        /// No viewability events.
        case off
        /// `viewable` where the rule is first met, else `notViewable` when the ad's execution ends.
        case measured
        /// `viewUndetermined` when the ad's execution ends: the honest answer of a player that measures nothing.
        case undetermined
    }

    /// MRC: 50 % of the pixels…
    public static let viewableShare = 50.0
    /// …for 2 continuous seconds of played video.
    public static let viewableTime: Duration = .seconds(2)

    /// Rules for a plain, non-rewarded, non-skippable ad; `duration` nil takes the container's.
    public init(duration: Duration? = nil) { self.duration = duration }

    /// When an icon shows and for how long, on the playhead (played media time): VAST's `offset` and `duration`.
    public struct IconRule: Sendable, Equatable {
        /// The playhead at which it shows (0: with the first frame, which is the earliest VAST allows).
        public var offset: Duration
        /// How long it shows; nil: until the video ends.
        public var duration: Duration?
        /// Whether it has an IconClickThrough to open on `iconClick`.
        public var hasClickThrough: Bool

        /// An icon showing from `offset` for `duration` (nil: until the video ends).
        public init(offset: Duration = .zero, duration: Duration? = nil, hasClickThrough: Bool = false) {
            self.offset = offset
            self.duration = duration
            self.hasClickThrough = hasClickThrough
        }
    }

    /// The playhead at which the reward is earned, for a threshold below complete.
    public func rewardPlayhead(duration: Duration) -> Duration? {
        switch rewardThreshold {
        case .complete, .later: nil
        case let .percent(value): value >= 100 ? nil : duration * max(0, value) / 100
        case let .played(time): time >= duration ? nil : max(.zero, time)
        }
    }
}
