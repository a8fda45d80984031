import Primitives
import PlayerEngine
import TrackingBeacons
import VAST

/// The ad and media file a session is about to play.
public struct ResolvedInfo: Sendable {
    /// The `<Ad id>`, when given.
    public var adID: String?
    /// The InLine's `<AdSystem>`, when given.
    public var adSystem: String?
    /// The InLine's `<AdTitle>`, when given.
    public var adTitle: String?
    /// Wrapper hops before the InLine.
    public var wrapperCount: Int
    /// The URL of the chosen media file.
    public var mediaURL: String
    /// Why that file was chosen, for humans (`MediaSelection.reason`).
    public var mediaReason: String
    /// The tag's `<Duration>`, when given.
    public var vastDuration: Duration?
    /// What opening the media file found: its container format, duration, timeline and streams.
    public var media: MediaInfo
    /// Where the skip control appears (resolved against the media's duration); nil when not skippable.
    public var skipOffset: Duration? = nil
    /// What a completed view earns, for a rewarded ad.
    public var reward: Reward? = nil
}
