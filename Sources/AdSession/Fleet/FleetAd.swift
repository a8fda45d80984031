import PlayerEngine
import Primitives
import VAST

extension FleetRunner {
    /// The one resolution and decode every session shares.
    struct FleetAd: Sendable {
        var plan: SessionPlan
        /// Every frame of one verified decode; nil when the ad failed before its media played.
        var timeline: MediaTimeline?
        var location: String
        var mediaURL: String
        var decodeSeconds: Double
        /// Under `--network-mix`, for each share of the mix: that network's download of the media.
        var deliveries: [MediaDelivery] = []
        /// An ad pod: every ad it tries, in play order; `plan` is then what fires before the pod (empty for a single
        /// ad).
        var pod: [AdTurn<FleetMedia>] = []
        /// How an HLS playlist is opened again (`--decode-each`): the variant the verified decode played.
        var streaming: StreamingOptions? = nil
        /// In a VMAP fleet: the break's `breakEnd` URLs, fired by every session when its ads are over.
        var breakEnd: [TrackingPlan.Target] = []
        var warnings: [String] { (plan.steps.warnings + pod.flatMap { $0.plan.steps.warnings }).map(\.description) }
        /// Where each media file a session plays was opened from.
        var locations: [String] { pod.isEmpty ? [location] : pod.compactMap { $0.media?.location } }

        /// The break a session on network `share` plays: a single ad's one turn (`plan(onNetwork:)`), or the pod's
        /// prelude and turns.
        func adBreak(onNetwork share: Int?, thresholds: SessionConfiguration.NetworkConditions?) -> AdBreak<FleetMedia> {
            guard pod.isEmpty else { return AdBreak(kind: .pod, prelude: plan, turns: pod) }
            return .single(plan(onNetwork: share, thresholds: thresholds),
                           media: timeline.map { FleetMedia(timeline: $0, location: location, streaming: streaming) })
        }

        /// The plan of a session on network `share`: its download, or (when the media is not ready in time) the
        /// 402 it fails with before playing, fired to the ad's Error URLs.
        func plan(onNetwork share: Int?, thresholds: SessionConfiguration.NetworkConditions?) -> SessionPlan {
            guard let share, deliveries.indices.contains(share) else { return plan }
            let delivery = deliveries[share]
            var plan = self.plan
            let timeout = thresholds?.mediaTimeout ?? SessionConfiguration.NetworkConditions.defaultMediaTimeout
            if delivery.isReady(within: timeout) {
                plan.playback?.delivery = delivery
                return plan
            }
            let failure = SessionError(kind: .media, code: .mediaFileTimeout,
                                       message: "media not ready to play within the media timeout of \(timeout.millisecondText) s on network \(delivery.profile)")
            plan.failure = failure
            plan.steps.append(.failure(failure, errorTargets: plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [], facts: plan.facts))
            return plan
        }
    }
}

/// A fleet ad's media: its one verified decode, and where it was opened from.
struct FleetMedia: Sendable {
    /// Every frame of the decode, the timeline each session replays.
    var timeline: MediaTimeline
    var location: String
    /// How an HLS playlist is opened again (`--decode-each`): the variant the verified decode played.
    var streaming: StreamingOptions?
}
