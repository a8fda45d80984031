import NIOCore
import NIOHTTP1
import Primitives

/// Collects event-stream text and writes it to the channel once per event-loop turn.
final class EventBatch: Sendable {
    private let channel: any Channel
    private let pending = Locked<(text: String, scheduled: Bool, closing: Bool)>(("", false, false))

    init(channel: any Channel) { self.channel = channel }

    func add(_ text: String, last: Bool) {
        let schedule = pending.withLock { pending -> Bool in
            pending.text += text
            if last { pending.closing = true }
            guard !pending.scheduled else { return false }
            pending.scheduled = true
            return true
        }
        guard schedule else { return }
        channel.eventLoop.execute { [self] in
            let (text, closing) = pending.withLock { pending -> (String, Bool) in
                defer { pending = ("", false, pending.closing) }
                return (pending.text, pending.closing)
            }
            if !text.isEmpty { channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: text))), promise: nil) }
            if closing {
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { [channel] _ in channel.close(promise: nil) }
            }
        }
    }
}
