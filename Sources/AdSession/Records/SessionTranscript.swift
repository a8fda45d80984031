import PlayerEngine
import TrackingBeacons

/// Everything a session reported, in order, for reports and expectation checks.
public struct SessionTranscript: Sendable {
    /// The ad that played (in a pod, the first one; `ads` has them all).
    public var resolved: ResolvedInfo?
    /// In a pod: each ad's turn, in order.
    public var ads: [PodAdReport] = []
    /// Every ad that played, in order (one for a single ad).
    public var resolvedAds: [ResolvedInfo] = []
    /// Every playback event, in order.
    public var events: [PlaybackEvent] = []
    /// Every beacon record, retries included, in the order their answers came.
    public var beacons: [BeaconRecord] = []
    /// Every warning, in order.
    public var warnings: [String] = []
    /// Every error reported, in order.
    public var errors: [SessionError] = []
    /// With a sink: fired against received; nil without one.
    public var reconciliation: Reconciliation?
    /// In a VMAP session: each break as it ended, in order.
    public var breaks: [VMAPBreakReport] = []

    /// An empty transcript.
    public init() {}

    /// Appends `record` to the list of its kind (the first `resolved` record also sets `resolved`).
    public mutating func add(_ record: SessionRecord) {
        switch record {
        case let .resolved(info):
            if resolved == nil { resolved = info }
            resolvedAds.append(info)
        case let .ad(report): ads.append(report)
        case let .event(event): events.append(event)
        case let .beacon(beacon): beacons.append(beacon)
        case let .warning(message): warnings.append(message)
        case let .error(error): errors.append(error)
        case let .reconciliation(result): reconciliation = result
        case let .adBreak(report): breaks.append(report)
        }
    }

    /// Final attempts only: one per beacon fired.
    public var firedBeacons: [BeaconRecord] { beacons.filter(\.isFinalAttempt) }
}
