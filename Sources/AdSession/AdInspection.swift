import Findings
import Primitives
import Foundation
import PlayerEngine
import VAST

/// What `vplay inspect` reports about a tag without playing it: the resolved chain hop by hop, the media file chosen
/// and why, every tracking URL by event and source, warnings and errors with their VAST codes.
public struct AdInspection: Sendable {
    /// One tracking URL of the resolved ad.
    public struct Tracking: Sendable, Equatable {
        /// `impression`, `error`, `start`, `progress`, `clickTracking`, `companion.creativeView`,
        /// `companion.clickTracking`, `icon.viewTracking`, `icon.clickTracking`, `verificationNotExecuted`, …
        public var event: String
        /// The URL template as written in the VAST, macros not expanded.
        public var url: String
        /// `inline`, `wrapper 1 (AdSystem)`, …
        public var source: String
        /// For progress: the offset as written (`00:00:05`, `25%`).
        public var offset: String?
        /// Macros in the URL that are not in the VAST 4.x list.
        public var unknownMacros: [String]
    }

    /// The tag URL or file path the inspection started from.
    public var tag: String
    /// Every request made while resolving, in order, from the tag itself (depth 0) through the wrapper chain.
    public var hops: [ResolutionHop]
    /// The ad the resolver chose, merged with its wrappers; nil when no ad resolved.
    public var ad: ResolvedAd?
    /// The media file chosen for the ad and why; nil when no ad resolved or no file fits.
    public var selection: MediaSelection?
    /// The chosen file opened with FFmpeg (container only, no decode), when it could be.
    public var media: MediaInfo?
    /// Every tracking URL a run could fire for the ad, grouped by event in a fixed order, each with its source.
    public var tracking: [Tracking] = []
    /// The companion a run shows as the end card, why, and the wrapper companions whose tracking fires with it.
    public var endCard: EndCardChoice?
    /// The icons a run shows, in order (an `iconClick` lands on the first one showing).
    public var icons: [ShownIconInfo] = []
    /// Under `--network`: the chosen file's download (its startup delay, the bytes it needs, a trailing header).
    public var delivery: MediaDelivery?
    /// Non-fatal problems found while loading, resolving and planning, each a finding of its rule.
    public var warnings: [Finding] = []
    /// VAST errors with codes: the no-ad error, failed chains, media errors.
    public var errors: [SessionError] = []
    /// An ad pod: every ad a run would try, in order (`ad`, `tracking`… describe the first that plays).
    public var pod: [PodPlace] = []

    /// One ad of a pod as `inspect` sees it: whether it would play, or why not.
    public struct PodPlace: Sendable {
        /// Which ad of the break this is.
        public var ad: BreakAd
        /// Whether it is a stand-alone ad that would play in place of a pod ad that failed.
        public var substitute: Bool
        /// Left out by the break's limits (206).
        public var cut: Bool
        /// Why it cannot play (nil: it plays).
        public var error: SessionError?
        /// The URL of the media file chosen for it; nil when none was.
        public var mediaURL: String?
        /// Its media's duration, when opened.
        public var duration: Duration?
    }

    /// The worst error's kind decides the exit code: an ad error (no ad) before a media error.
    public var outcome: SessionSummary.Outcome {
        if errors.contains(where: { $0.kind == .usage }) { return .usageError }
        if errors.contains(where: { $0.kind == .ad }) && ad == nil { return .adError }
        if errors.contains(where: { $0.kind == .media }) { return .mediaError }
        return .completed
    }
}

