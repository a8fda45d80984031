import PlayerEngine
import VAST

/// How a session ended, for the summary line, the report and the exit code.
public struct SessionSummary: Sendable {
    public enum Outcome: String, Sendable { case completed, adError, mediaError, usageError, interrupted }

    public var outcome: Outcome
    public var error: SessionError?
    public var adID: String?
    public var mediaURL: String?
    /// The duration quartiles were computed on.
    public var duration: Duration?
    public var events = 0
    public var beaconsPlanned = 0
    /// Answered 2xx/3xx.
    public var beaconsDelivered = 0
    /// Not delivered: no answer, timed out, refused, or an error status.
    public var beaconsFailed = 0
    public var dryRun = false
    public var playback: PlaybackReport?
    /// Session clock at the end.
    public var clock: Duration = .zero
    public var warnings: [String] = []
    /// The wrapper chain as resolved, hop by hop.
    public var hops: [ResolutionHop] = []
    /// With a sink: fired against received.
    public var reconciliation: Reconciliation?
    /// The simulated network the media downloaded on (`--network`), with its thresholds.
    public var network: SessionConfiguration.NetworkConditions?
    /// An ad pod's ads, in the order tried; empty for a single ad.
    public var ads: [PodAdReport] = []
}
