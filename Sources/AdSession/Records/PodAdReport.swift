import PlayerEngine
import Primitives

/// What happened to one ad a pod tried: played (to its end, skipped, closed…), failed before or while playing
/// (with its VAST code; a substitute may follow at the same place), cut by the break's limits (206), or never
/// reached because the pod ended first.
public struct PodAdReport: Sendable, Equatable {
    /// How an ad's turn in the pod ended (`outcome` of the `ad` line in JSON output).
    public enum Outcome: String, Sendable {
        /// It played: to its end, skipped, closed, abandoned (nothing could end it: no more frames or input), or
        /// interrupted by a signal.
        case completed, skipped, closed, abandoned, interrupted
        /// It could not play (before its first frame) or its media failed while playing: `error` says why.
        case failed
        /// The break's limits left it out (206).
        case cut
        /// The player stopped it where it was: its break's playout limit (an HLS interstitial's `X-PLAYOUT-LIMIT`).
        case stopped
        /// The app was killed while it played (`terminate`): the pod ends there.
        case terminated
        /// The pod ended (a close, an abandoned ad, a signal) before its turn.
        case notPlayed
    }

    /// Its place in the pod (a substitute shares the place of the ad it replaces), id and sequence.
    public var ad: BreakAd
    /// A stand-alone ad of the response standing in for the failed ad at its place.
    public var substitute: Bool
    /// How its turn ended.
    public var outcome: Outcome
    /// Why it failed or was cut, with the VAST code fired to its Error URLs.
    public var error: SessionError?
    /// Session clock at its first frame, and when it ended (or when it was tried, for one that did not play).
    public var start: Duration?
    /// Session clock when it ended, or when it was tried for an ad that did not play.
    public var end: Duration?
    /// Media time played (its playhead at the end; a replay's time is not added).
    public var played: Duration = .zero
    /// Its media's duration, when it was opened.
    public var duration: Duration?
    /// Beacons it fired (planned: sent, or logged in a dry run).
    public var beacons = 0

    /// A report with nothing played yet: no error, no clock times, no beacons.
    public init(ad: BreakAd, substitute: Bool, outcome: Outcome) {
        self.ad = ad
        self.substitute = substitute
        self.outcome = outcome
    }
}
