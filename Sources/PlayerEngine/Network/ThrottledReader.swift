import CFFmpeg
import Foundation

/// The bytes of a media file as a simulated network delivers them, for real: an `AVIOContext` over the reader FFmpeg
/// opened, whose reads return no sooner than the profile says their last byte arrives (`NetworkProfile.arrival`,
/// counted from when the media was requested, on the caller's clock (`MediaThrottle.stopwatch`) scaled by the session's
/// speed). A read of bytes that have "arrived" returns at once, so seeking back costs nothing, as a cache would.
///
/// Used for `--network` in real time, so a real-time run stalls because FFmpeg really waits for its bytes. Waits are
/// cut into slices of at most 20 ms, each checking the load and read deadline (`LoadDeadline`): a wait past it fails
/// the read as any stalled read does (`MediaError.readTimedOut`).
final class ThrottledReader {
    private let inner: UnsafeMutablePointer<AVIOContext>
    private let profile: NetworkProfile
    private let speed: Double
    private let deadline: LoadDeadline
    /// Time since the media was requested, on the caller's clock.
    private let sinceRequested: @Sendable () -> Duration
    /// The context FFmpeg reads through; freed with this object.
    private(set) var context: UnsafeMutablePointer<AVIOContext>!
    /// Reads that had to wait for bytes not delivered yet.
    private(set) var waits = 0

    static let bufferSize = 32 * 1024

    init(inner: UnsafeMutablePointer<AVIOContext>, throttle: MediaThrottle, deadline: LoadDeadline) {
        self.inner = inner
        profile = throttle.profile
        speed = max(0.001, throttle.speed)
        sinceRequested = throttle.stopwatch()
        self.deadline = deadline
        guard let buffer = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self),
              let context = avio_alloc_context(buffer, Int32(Self.bufferSize), 0, Unmanaged.passUnretained(self).toOpaque(),
                                               { opaque, buffer, size in
                                                   guard let opaque else { return VPLAY_AVERROR_EOF }
                                                   return Unmanaged<ThrottledReader>.fromOpaque(opaque).takeUnretainedValue().read(buffer, size)
                                               }, nil,
                                               { opaque, offset, whence in
                                                   guard let opaque else { return -1 }
                                                   return Unmanaged<ThrottledReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
                                               })
        else { fatalError("avio_alloc_context: out of memory") }
        context.pointee.seekable = inner.pointee.seekable
        self.context = context
    }

    deinit {
        var buffer: UnsafeMutablePointer<UInt8>? = context.pointee.buffer
        av_freep(&buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }

    /// Returns what has arrived of the bytes asked for, as a socket does: at least one byte, waiting for it when
    /// none has.
    private func read(_ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
        let position = avio_tell(inner)
        if profile.bytes(arrivedBy: elapsed) <= position {
            waits += 1
            guard let arrival = profile.arrival(ofBytes: position + 1) else { return wait(until: nil) ?? VPLAY_AVERROR_EXIT }
            if let interrupted = wait(until: arrival / speed) { return interrupted }
        }
        let arrived = max(1, profile.bytes(arrivedBy: elapsed) - position)
        let count = avio_read_partial(inner, buffer, Int32(min(Int64(size), arrived)))
        return count > 0 ? count : (count == 0 ? VPLAY_AVERROR_EOF : count)
    }

    /// Download time since the request, in the profile's (session) seconds.
    private var elapsed: Duration { sinceRequested() * speed }

    /// Sleeps until `sinceRequested` reaches `due` (nil: forever) in slices, giving up with `AVERROR_EXIT` when the
    /// deadline says so.
    private func wait(until due: Duration?) -> Int32? {
        while due.map({ sinceRequested() < $0 }) ?? true {
            if deadline.shouldInterrupt() { return VPLAY_AVERROR_EXIT }
            let left = due.map { $0 - sinceRequested() } ?? .milliseconds(20)
            Thread.sleep(forTimeInterval: min(0.02, max(0, left.seconds)))
        }
        return nil
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return avio_size(inner) }
        return avio_seek(inner, offset, whence & ~AVSEEK_FORCE)
    }
}
