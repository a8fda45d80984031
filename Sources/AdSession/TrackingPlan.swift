import PlayerEngine
import VAST

/// Which tracking URLs each playback event fires, from the resolved ad (InLine and every wrapper, in chain order).
struct TrackingPlan: Sendable {
    struct Target: Sendable {
        /// The name the beacon log uses (`impression`, `start`, `progress`…).
        var event: String
        var url: String
        var source: TrackingSource
    }

    let ad: ResolvedAd
    /// Progress offsets resolved against the media's duration, each with its URLs.
    let progress: [(at: Duration, targets: [Target])]

    init(ad: ResolvedAd, duration: Duration) {
        self.ad = ad
        var byOffset: [Duration: [Target]] = [:]
        for tracking in ad.tracking(for: .progress) {
            guard let offset = tracking.offset else { continue }
            byOffset[offset.resolve(against: duration), default: []].append(Target(event: "progress", url: tracking.url, source: tracking.source))
        }
        progress = byOffset.keys.sorted().map { ($0, byOffset[$0]!) }
    }

    var progressOffsets: [Duration] { progress.map(\.at) }

    /// The URLs `event` fires, `about:blank` and empty ones already dropped by the parser.
    func targets(for event: PlaybackEvent) -> [Target] {
        switch event.name {
        case .impression:
            return ad.impressions.map { Target(event: "impression", url: $0.url, source: $0.source) }
        case .progress:
            guard let offset = event.offset else { return [] }
            return progress.first { $0.at == offset }?.targets ?? []
        default:
            let name = TrackingEventName(event.name.rawValue)
            return ad.tracking(for: name).map { Target(event: name.rawValue, url: $0.url, source: $0.source) }
        }
    }

    /// Error URLs of the ad and every wrapper in its chain.
    var errorTargets: [Target] { ad.errorURLs.map { Target(event: "error", url: $0.url, source: $0.source) } }
}
