#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// What a sink connection answers with (a response head, a zero body) and how it is cut, without the handler's state.
extension SinkConnectionHandler {
    /// `bytes` zero bytes as slices of one shared chunk, so a large fault body costs one chunk of memory.
    static func zeroBody(bytes: Int, allocator: ByteBufferAllocator) -> [ByteBuffer] {
        guard bytes > 0 else { return [] }
        let chunk = allocator.buffer(repeating: 0, count: min(bytes, SinkLimits.bodyChunkBytes))
        var parts: [ByteBuffer] = []
        parts.reserveCapacity((bytes + chunk.readableBytes - 1) / chunk.readableBytes)
        var remaining = bytes
        while remaining > 0 {
            let length = min(remaining, chunk.readableBytes)
            parts.append(chunk.getSlice(at: chunk.readerIndex, length: length)!)
            remaining -= length
        }
        return parts
    }

    /// The response head for `request`: its HTTP version, and a `Connection` header when keep-alive is not
    /// what that version assumes.
    static func responseHead(status: Int, headers: HTTPHeaders, keepAlive: Bool, for request: HTTPRequestHead) -> HTTPResponseHead {
        var headers = headers
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if request.version.major == 1 && request.version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let version: HTTPVersion = request.version.major == 1 && request.version.minor == 0 ? .http1_0 : .http1_1
        return HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
    }

    /// The path of a request target, without its query.
    static func path(of target: String) -> Substring {
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// Closes `channel` with `SO_LINGER` 0, so the kernel sends RST instead of FIN and the client reads
    /// `ECONNRESET`; if the option cannot be set, the close is an orderly one, still without an answer.
    static func reset(_ channel: any Channel) {
        guard let options = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
