#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends one answer body, after its head, in chunks on the connection's event loop: as fast as the channel
/// takes them, or paced to a rate, with an optional pause at a point in the resource. Nothing sleeps: the
/// pace and the pause are timers on the event loop, the file is read on NIO's blocking thread pool, one
/// chunk at a time, and a chunk is only produced while the channel is writable (the handler calls
/// ``pump()`` again from `channelWritabilityChanged`). So memory stays at about one chunk plus the
/// channel's high-water mark, however large the file, and a client that stops reading stops the sender.
///
/// Confined to the connection's event loop. ``cancel()`` (the client went away) stops it for good; the
/// file closes once no read is in flight.
final class SinkBodySender {
    /// Chunk size without a rate: 64 KiB.
    static let chunkBytes = SinkLimits.bodyChunkBytes
    /// How late a paced chunk may be before the pace restarts from now instead of catching up in a burst.
    static let catchUpLimit = TimeAmount.milliseconds(100)

    private let context: ChannelHandlerContext
    private let source: SinkBodySource
    /// Offset in the resource of the next byte to send, and of the byte after the last one.
    private var offset: Int
    private let end: Int
    private let bytesPerSecond: Int?
    /// Offset before which the body pauses for ``pause``; nil once paused or when it does not apply.
    private var stallOffset: Int?
    private let pause: TimeAmount
    /// The pace: byte `paceOffset + n` is due `n / bytesPerSecond` seconds after `paceOrigin`. Times are the event
    /// loop's (`EventLoop.now`), the clock its timers run on (a test's embedded loop sets it by hand).
    private var paceOrigin: NIODeadline
    private var paceOffset: Int
    /// A timer or a file read is outstanding; ``pump()`` waits for it.
    private var waiting = false
    private var scheduled: Scheduled<Void>?
    private var isFinished = false
    private var zeroChunk: ByteBuffer?
    private let completion: (Bool) -> Void

    /// A sender of `source` under `shaping`; `completion` runs once, on the event loop, with true when the
    /// whole body was written (the caller writes the end), false when it could not be (the caller closes).
    /// It does not run after ``cancel()``.
    init(source: SinkBodySource, shaping: SinkShaping, context: ChannelHandlerContext, completion: @escaping (Bool) -> Void) {
        self.context = context
        paceOrigin = context.eventLoop.now
        self.source = source
        self.completion = completion
        let size: Int
        switch source {
        case .bytes(let buffer):
            (offset, end, size) = (0, buffer.readableBytes, buffer.readableBytes)
        case .zeros(let count):
            (offset, end, size) = (0, count, count)
        case .file(_, let start, let length, let fileSize):
            (offset, end, size) = (start, start + length, fileSize)
        }
        paceOffset = offset
        bytesPerSecond = shaping.bytesPerSecond
        pause = TimeAmount(shaping.stall ?? .zero)
        if shaping.stall != nil {
            // Percent of the whole resource, so a range request meets the pause at the same byte of the file.
            let point = Int((Double(size) * Double(shaping.stallPercent) / 100).rounded(.down))
            stallOffset = (offset..<end).contains(point) ? point : nil
        }
    }

    /// Sends what may be sent now; call again when the channel becomes writable.
    func pump() {
        while !isFinished && !waiting {
            if offset >= end {
                finish(true)
                return
            }
            guard context.channel.isWritable else { return }
            if let stall = stallOffset, offset == stall {
                stallOffset = nil
                wait(until: context.eventLoop.now + pause) { sender in
                    sender.paceOrigin = sender.context.eventLoop.now
                    sender.paceOffset = sender.offset
                }
                return
            }
            var size = min(end - offset, chunkLimit)
            if let stall = stallOffset { size = min(size, stall - offset) }
            if let rate = bytesPerSecond {
                let now = context.eventLoop.now
                let due = paceOrigin + Self.time(forBytes: offset + size - paceOffset, at: rate)
                if due > now {
                    wait(until: due) { _ in }
                    return
                }
                if now - due > Self.catchUpLimit {
                    // Late (a busy loop, a slow reader): restart the pace instead of bursting to catch up.
                    paceOrigin = now
                    paceOffset = offset + size
                }
            }
            produce(size)
        }
    }

    /// Stops for good: no more writes, no completion; the file closes now or when its read returns.
    func cancel() {
        guard !isFinished else { return }
        isFinished = true
        scheduled?.cancel()
        scheduled = nil
        if !waiting { closeFile() }
    }

    // MARK: - Private

    private var chunkLimit: Int {
        // Paced: about ten writes a second, so the pace is smooth at any rate.
        guard let rate = bytesPerSecond else { return Self.chunkBytes }
        return min(max(rate / 10, 1), Self.chunkBytes)
    }

    private static func time(forBytes bytes: Int, at rate: Int) -> TimeAmount {
        .nanoseconds(Int64((Double(bytes) / Double(rate) * 1e9).rounded(.up)))
    }

    private func wait(until deadline: NIODeadline, then resume: @escaping (SinkBodySender) -> Void) {
        waiting = true
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            scheduled = nil
            waiting = false
            guard !isFinished else { return }
            resume(self)
            pump()
        }
    }

    /// Writes the next `size` bytes: at once from memory, or after reading them from the file.
    private func produce(_ size: Int) {
        switch source {
        case .bytes(let buffer):
            write(buffer.getSlice(at: buffer.readerIndex + offset, length: size)!)
        case .zeros:
            if zeroChunk == nil || zeroChunk!.readableBytes < size {
                zeroChunk = context.channel.allocator.buffer(repeating: 0, count: min(end, Self.chunkBytes))
            }
            write(zeroChunk!.getSlice(at: zeroChunk!.readerIndex, length: size)!)
        case .file(let file, _, _, _):
            waiting = true
            let descriptor = file.descriptor, at = offset, allocator = context.channel.allocator
            let read = NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) {
                try Self.read(descriptor: descriptor, at: at, count: size, allocator: allocator)
            }
            read.assumeIsolated().whenComplete { [self] result in
                waiting = false
                guard !isFinished else {
                    closeFile()
                    return
                }
                switch result {
                case .success(let buffer) where buffer.readableBytes == size:
                    write(buffer)
                    pump()
                case .success, .failure:
                    // The file shrank or could not be read: the promised length cannot be kept.
                    finish(false)
                }
            }
        }
    }

    private func write(_ chunk: ByteBuffer) {
        offset += chunk.readableBytes
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(chunk)))).assumeIsolated().whenFailure { [self] _ in
            finish(false)
        }
    }

    private func finish(_ success: Bool) {
        guard !isFinished else { return }
        isFinished = true
        scheduled?.cancel()
        scheduled = nil
        if !waiting { closeFile() }
        completion(success)
    }

    private func closeFile() {
        if case .file(let file, _, _, _) = source { file.close() }
    }

    /// `count` bytes of the file at `offset`, fewer only at its end; runs on the blocking thread pool.
    private static func read(descriptor: Int32, at offset: Int, count: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        var buffer = allocator.buffer(capacity: count)
        var total = 0
        while total < count {
            var got = 0
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - total) { raw in
                got = pread(descriptor, raw.baseAddress, count - total, off_t(offset + total))
                return max(got, 0)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw IOError(errnoCode: errno, reason: "pread")
            }
            if got == 0 { break }
            total += got
        }
        return buffer
    }
}
