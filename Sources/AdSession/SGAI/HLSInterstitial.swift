import Foundation

/// One HLS interstitial of a content playlist: an `EXT-X-DATERANGE` whose `CLASS` is `com.apple.hls.interstitial`
/// (RFC 8216bis, appendix D), placed on the content's own timeline.
public struct HLSInterstitial: Sendable, Equatable {
    /// `CUE`: when a player triggers it.
    public enum Cue: String, Sendable, Equatable {
        /// `PRE`: before the content's first frame.
        case pre
        /// `POST`: after the content's end.
        case post
        /// On its `START-DATE` (no `PRE` or `POST`).
        case date
    }

    public var id: String
    /// Where it falls on the content's timeline (its `START-DATE` against the playlist's `EXT-X-PROGRAM-DATE-TIME`).
    public var contentTime: Duration
    public var cue: Cue
    /// `CUE` names `ONCE`.
    public var once: Bool
    /// `X-ASSET-URI`, resolved against the playlist.
    public var assetURI: String?
    /// `X-ASSET-LIST`, resolved against the playlist.
    public var assetList: String?
    /// `X-RESUME-OFFSET`: where the content resumes, from `contentTime`.
    public var resumeOffset: Duration?
    /// `X-PLAYOUT-LIMIT`: the longest the interstitial plays.
    public var playoutLimit: Duration?
    /// `X-RESTRICT`: `SKIP`, `JUMP`.
    public var restrict: Set<String>
    /// `X-SNAP`: `OUT`, `IN`.
    public var snap: Set<String>
    /// `X-TIMELINE-OCCUPIES="RANGE"`.
    public var occupiesRange: Bool
    /// `DURATION`, or `END-DATE` minus `START-DATE`.
    public var duration: Duration?
    /// `PLANNED-DURATION`.
    public var plannedDuration: Duration?
    /// `X-AD-CREATIVE-SIGNALING` on the date range (base64 JSON), read.
    public var signaling: AdCreativeSignaling?

    public init(id: String, contentTime: Duration, cue: Cue = .date, once: Bool = false, assetURI: String? = nil, assetList: String? = nil,
                resumeOffset: Duration? = nil, playoutLimit: Duration? = nil, restrict: Set<String> = [], snap: Set<String> = [],
                occupiesRange: Bool = false, duration: Duration? = nil, plannedDuration: Duration? = nil, signaling: AdCreativeSignaling? = nil) {
        self.id = id
        self.contentTime = contentTime
        self.cue = cue
        self.once = once
        self.assetURI = assetURI
        self.assetList = assetList
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
        self.restrict = restrict
        self.snap = snap
        self.occupiesRange = occupiesRange
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.signaling = signaling
    }
}
