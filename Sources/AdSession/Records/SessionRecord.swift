import Primitives
import PlayerEngine
import TrackingBeacons
import VAST

/// What a session reports as it goes, in order: the chosen ad and media, each playback event, each beacon (when its
/// answer comes, or at once in a dry run), warnings and errors. The CLI renders these; a library user asserts on them.
public enum SessionRecord: Sendable {
    /// An ad and its media file were chosen and opened, before its playback (once per ad played).
    case resolved(ResolvedInfo)
    /// A playback event: impression, quartile, pause, skip, click, error, ….
    case event(PlaybackEvent)
    /// One beacon attempt, when its answer came (or at once in a dry run).
    case beacon(BeaconRecord)
    /// Something non-fatal, in words (a duration mismatch, an unknown macro, …).
    case warning(String)
    /// A VAST or media error, with the code fired to the Error URLs.
    case error(SessionError)
    /// The embedded sink's count of what arrived, against what was fired (with `--sink`, at the end).
    case reconciliation(Reconciliation)
    /// In an ad pod: one ad's turn is over (played, failed, cut), or the pod ended before it.
    case ad(PodAdReport)
}

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

/// A VAST or media error, with the VAST code sent as `[ERRORCODE]`.
public struct SessionError: Error, Sendable, Equatable {
    /// `usage`: the command line asked for what the ad does not have (`--media-file 9` of three files): reported,
    /// never fired to the ad server, exit 2.
    public enum Kind: String, Sendable {
        /// `ad`: 1xx–3xx and 9xx codes; `media`: 4xx codes; `usage`: a request on the command line the ad cannot meet.
        case ad, media, usage

        /// An ad error (1xx–3xx) or a media error (4xx) by its VAST code: run and inspect decide it the same way.
        public static func of(_ code: VASTErrorCode) -> Kind { (400..<500).contains(code.rawValue) ? .media : .ad }
    }
    /// Whether it is an ad, media or usage error; decides the summary's outcome and the exit code.
    public var kind: Kind
    /// VAST error code (100–903), as sent in `[ERRORCODE]`.
    public var code: VASTErrorCode
    /// What went wrong, in words.
    public var message: String
    /// Playhead and session clock when it happened (nil before playback).
    public var playhead: Duration?
    /// Session clock when it happened (nil before playback).
    public var clock: Duration?
}
