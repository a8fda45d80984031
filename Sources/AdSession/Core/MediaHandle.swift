import PlayerEngine
import VAST

/// A turn's media as a session plays it: opened and positioned before its first frame, and opened again from the
/// start for a replay.
struct MediaHandle {
    var source: any MediaSource
    var duration: Duration
    var reopen: () throws(MediaError) -> any MediaSource
}
