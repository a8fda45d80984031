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
    /// In a VMAP session: one break is over (played, failed, skipped, withheld…), with where it fell and what it did.
    case adBreak(VMAPBreakReport)
}

