import PlayerEngine
import VAST

/// How a session ended, for the summary line, the report and the exit code.
public struct SessionSummary: Sendable {
    /// How the session ended, by its worst error: `completed` (no error), `adError`, `mediaError`, `usageError`, or
    /// `interrupted` (cancelled by a signal).
    public enum Outcome: String, Sendable { case completed, adError, mediaError, usageError, interrupted }

    /// How the session ended; decides the exit code.
    public var outcome: Outcome
    /// The error that ended the session; nil when none did.
    public var error: SessionError?
    /// The `<Ad id>` of the ad the session prepared, when it had one.
    public var adID: String?
    /// The URL of the media file chosen; nil when none was.
    public var mediaURL: String?
    /// The duration quartiles were computed on.
    public var duration: Duration?
    /// Playback events reported.
    public var events = 0
    /// Beacons planned: one per tracking URL of each event that fired (sent, or logged in a dry run).
    public var beaconsPlanned = 0
    /// Answered 2xx/3xx.
    public var beaconsDelivered = 0
    /// Not delivered: no answer, timed out, refused, or an error status.
    public var beaconsFailed = 0
    /// Beacons lost with the app (`terminate`): not answered when it was killed, neither delivered nor failed.
    public var beaconsLost = 0
    /// The session ran with `dryRun`: beacons were expanded and logged, none sent.
    public var dryRun = false
    /// What playback measured (frames, stalls, ending, reward); nil when the session did not play.
    public var playback: PlaybackReport?
    /// Session clock at the end.
    public var clock: Duration = .zero
    /// Every warning the session reported, in order.
    public var warnings: [String] = []
    /// The wrapper chain as resolved, hop by hop.
    public var hops: [ResolutionHop] = []
    /// With a sink: fired against received.
    public var reconciliation: Reconciliation?
    /// The simulated network the media downloaded on (`--network`), with its thresholds.
    public var network: SessionConfiguration.NetworkConditions?
    /// An ad pod's ads, in the order tried; empty for a single ad.
    public var ads: [PodAdReport] = []
    /// A VMAP session's schedule, content and breaks; nil for a VAST session.
    public var vmap: VMAPRunReport?
    /// A stream played by its client-side tracking document (`--tracking-doc`): avails, ads and each event's fate.
    public var tracking: TrackedStreamReport?
    /// Server-side mode (`--ssai server`): each timed event as the stitcher fired it, against the client's moment.
    public var serverSide: ServerSideReport?
    /// With `load+N` script steps: when the ad was ready, when it showed, and what the app did meanwhile.
    public var loading: SessionScript.Loading?
}
