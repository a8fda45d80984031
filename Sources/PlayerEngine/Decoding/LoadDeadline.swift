import Primitives
import CFFmpeg

/// A wall-time limit on loading media, and then on reading each packet, enforced inside FFmpeg through its interrupt
/// callback (`AVIOInterruptCB`).
///
/// FFmpeg's `rw_timeout` bounds one blocked read, but a server that trickles a byte every few seconds never trips
/// it; FFmpeg polls this callback while it connects, reads and waits, so loading (or reading one packet) ends once
/// the limit has passed. The callback runs on the thread that called into FFmpeg, the one that owns this object.
final class LoadDeadline {
    /// How long loading may take.
    let limit: Duration
    /// `av_gettime_relative()` (monotonic microseconds) after which FFmpeg is told to give up; nil when disarmed.
    private var deadlineMicros: Int64?
    /// Whether FFmpeg was told to give up (sticky, so an error can be attributed to the deadline afterwards).
    private(set) var expired = false

    init(limit: Duration) {
        self.limit = limit
    }

    /// Starts counting `limit` (the load limit unless another is given) from now.
    func arm(for limit: Duration? = nil) {
        let micros = max(1, Int64((limit ?? self.limit).seconds * 1_000_000))
        deadlineMicros = av_gettime_relative() + micros
        expired = false
    }

    /// What is left of the limit (zero once passed; the whole limit when disarmed).
    var remaining: Duration {
        guard let deadlineMicros else { return limit }
        return .microseconds(max(0, deadlineMicros - av_gettime_relative()))
    }

    /// Stops the limit (loading, or reading one packet, is done).
    func disarm() { deadlineMicros = nil }

    /// Whether FFmpeg was told to give up because the task it runs in was cancelled (a signal, a session given up):
    /// sticky, so the error that follows is not taken for the media's.
    private(set) var cancelled = false

    /// FFmpeg's question "should I stop now?". Also yes, at once, when the task calling into FFmpeg is cancelled: the
    /// callback runs on that task's thread, so a signal ends a load or a segment fetch without waiting for a deadline.
    func shouldInterrupt() -> Bool {
        if expired || cancelled { return true }
        if Task.isCancelled {
            cancelled = true
            return true
        }
        guard let deadlineMicros, av_gettime_relative() >= deadlineMicros else { return false }
        expired = true
        return true
    }

    /// The callback to give FFmpeg; valid while this object lives (its owner keeps it alive longer than every
    /// FFmpeg context that holds the callback).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<LoadDeadline>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
