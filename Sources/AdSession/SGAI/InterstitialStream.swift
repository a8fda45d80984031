import Foundation

/// A content playlist with interstitials, read: the content's length (the sum of its segments; not decoded), its
/// segment boundaries (for `X-SNAP`), its interstitials in time order, and what the reading found.
public struct InterstitialStream: Sendable, Equatable {
    public var contentDuration: Duration
    /// Where each segment starts on the content's timeline, and the content's end.
    public var boundaries: [Duration]
    public var interstitials: [HLSInterstitial]
    /// Findings in words (`VPLAY-sgai-*`), said as the session starts.
    public var notes: [String]

    /// The segment boundary (or the content's end) closest to `time`; the earlier of two as close.
    public func nearestBoundary(to time: Duration) -> Duration { Self.nearest(to: time, in: boundaries) }

    static func nearest(to time: Duration, in boundaries: [Duration]) -> Duration {
        boundaries.min { abs(($0 - time).wholeMilliseconds) < abs(($1 - time).wholeMilliseconds) } ?? time
    }
}
