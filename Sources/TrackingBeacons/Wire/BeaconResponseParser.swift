import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Networking

/// Reads the answers to beacon GETs from a connection's bytes as they come, HTTP/1.x (RFC 9112): the status line and
/// the header fields, then the body by its framing (none after 204 and 304, chunked, `Content-Length`, or up to the
/// connection's close), its bytes counted, never kept. Interim 1xx answers are skipped. The pooled transport's own
/// codec: one pass over the bytes, and no header objects unless `keepsHeaders` (a redirect's `Location` is always
/// read).
///
/// Lenient only where RFC 9112 lets a recipient be (a bare LF ends a line, empty lines before a status line are
/// skipped, an obsolete folded line continues its field); anything else that is not an answer is `Malformed`, and
/// the connection carrying it is closed.
struct BeaconResponseParser {
    /// An answer's status line and header fields.
    struct Head: Equatable {
        var status: Int
        /// The fields in order, as written; empty unless the parser keeps headers.
        var headers: [HeaderField]
        var location: String?
        /// Whether the connection may carry another request after this answer (HTTP/1.1 unless `Connection: close`;
        /// HTTP/1.0 with `Connection: keep-alive`; never when the body ends at the close).
        var keepAlive: Bool
    }

    enum Event: Equatable {
        case head(Head)
        /// Body bytes read (counted, dropped).
        case body(Int)
        case end
    }

    struct Malformed: Error, Equatable, CustomStringConvertible {
        var why: String
        var description: String { "invalid HTTP response: \(why)" }
    }

    /// A head (status line and fields), or a chunk's trailer section, longer than this is refused (SwiftNIO's
    /// default limit for header fields).
    static let maxHeadBytes = 80 * 1024
    /// A chunk-size line longer than this is refused.
    static let maxChunkLineBytes = 4 * 1024

    let keepsHeaders: Bool

    private enum State {
        case head
        /// Body bytes left of a `Content-Length` body.
        case fixed(Int)
        case chunkSize
        case chunkData(Int)
        /// The line break after a chunk's data.
        case chunkDataEnd
        /// Trailer fields after the last chunk, and how many bytes of them so far.
        case trailers(Int)
        /// The body ends when the connection closes.
        case untilClose
    }

    private var state = State.head
    /// An incomplete line or head, kept with the bytes after it until more come.
    private var carry: ByteBuffer?
    /// Bytes of the carried head searched for its end already.
    private var headSearched = 0
    /// The last head read, its bytes and their parse: a head with the same bytes is not parsed again.
    private var lastHead: LastHead?

    private struct LastHead {
        /// Longer heads are not kept.
        static let maxBytes = 1024
        var bytes: [UInt8]
        var parsed: ParsedHead

        /// Whether `buffer`'s readable bytes begin with `bytes` (a head ends with its empty line: nothing after it
        /// can change it).
        func begins(_ buffer: ByteBuffer) -> Bool {
            guard buffer.readableBytes >= bytes.count else { return false }
            return buffer.withUnsafeReadableBytes { readable in
                bytes.withUnsafeBytes { memcmp(readable.baseAddress!, $0.baseAddress!, $0.count) == 0 }
            }
        }
    }

    init(keepsHeaders: Bool) {
        self.keepsHeaders = keepsHeaders
    }

    /// Whether the answer being read ends when the connection closes (its close is then its end, not a failure).
    var endsAtClose: Bool {
        if case .untilClose = state { return true }
        return false
    }

    /// Reads `input`, calling `emit` with each event in order; stops at once when `emit` returns false (the caller
    /// is done with the connection).
    mutating func parse(_ input: ByteBuffer, emit: (Event) -> Bool) throws(Malformed) {
        var buffer = input
        if var carried = carry {
            carry = nil
            carried.writeImmutableBuffer(input)
            buffer = carried
        }
        while buffer.readableBytes > 0 {
            switch state {
            case .head:
                guard let head = try nextHead(in: &buffer) else { return }
                if (100..<200).contains(head.head.status) {
                    // Interim; the answer follows. 101 would leave HTTP: a beacon never asks for it.
                    guard head.head.status != 101 else { throw Malformed(why: "101 Switching Protocols to a GET that asked for no upgrade") }
                    continue
                }
                guard emit(.head(head.head)) else { return }
                switch head.framing {
                case .none:
                    guard emit(.end) else { return }
                case let .length(length):
                    if length == 0 {
                        guard emit(.end) else { return }
                    } else {
                        state = .fixed(length)
                    }
                case .chunked: state = .chunkSize
                case .untilClose: state = .untilClose
                }
            case let .fixed(left):
                let taken = min(left, buffer.readableBytes)
                buffer.moveReaderIndex(forwardBy: taken)
                state = taken == left ? .head : .fixed(left - taken)
                guard emit(.body(taken)) else { return }
                if taken == left { guard emit(.end) else { return } }
            case .chunkSize:
                guard let line = try line(in: &buffer, limit: Self.maxChunkLineBytes) else { return }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailers(0) : .chunkData(size)
            case let .chunkData(left):
                let taken = min(left, buffer.readableBytes)
                buffer.moveReaderIndex(forwardBy: taken)
                state = taken == left ? .chunkDataEnd : .chunkData(left - taken)
                guard emit(.body(taken)) else { return }
            case .chunkDataEnd:
                guard let line = try line(in: &buffer, limit: Self.maxChunkLineBytes) else { return }
                guard line.readableBytes == 0 else { throw Malformed(why: "a chunk's data is longer than its size") }
                state = .chunkSize
            case let .trailers(read):
                guard let line = try line(in: &buffer, limit: Self.maxHeadBytes - read) else { return }
                if line.readableBytes == 0 {
                    state = .head
                    guard emit(.end) else { return }
                } else {
                    state = .trailers(read + line.readableBytes + 2)
                }
            case .untilClose:
                let taken = buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: taken)
                guard emit(.body(taken)) else { return }
            }
        }
    }

    /// The head at the start of `buffer`, moving past it; nil (the rest carried) when its end has not come yet.
    private mutating func nextHead(in buffer: inout ByteBuffer) throws(Malformed) -> ParsedHead? {
        let head: ParsedHead, length: Int
        if headSearched == 0, let last = lastHead, last.begins(buffer) {
            // The same bytes as the last head: the same head (a collector's answers differ, if at all, by their
            // `Date`, once a second).
            (head, length) = (last.parsed, last.bytes.count)
        } else {
            // Parsed once its end is there; the bytes searched already are not searched again (a head that comes a
            // byte at a time costs its length, not its square).
            guard headSearched == 0 || Self.headEnds(in: buffer, from: headSearched),
                  let (parsed, parsedLength) = try Self.head(in: buffer, keepsHeaders: keepsHeaders) else {
                guard buffer.readableBytes <= Self.maxHeadBytes else { throw Malformed(why: "the head is longer than \(Self.maxHeadBytes) bytes") }
                headSearched = max(0, buffer.readableBytes - 2)
                carry = buffer
                return nil
            }
            headSearched = 0
            // Its end came in the read that took it past the limit: still too long.
            guard parsedLength <= Self.maxHeadBytes else { throw Malformed(why: "the head is longer than \(Self.maxHeadBytes) bytes") }
            (head, length) = (parsed, parsedLength)
            if length <= LastHead.maxBytes {
                lastHead = LastHead(bytes: Array(buffer.readableBytesView.prefix(length)), parsed: head)
            }
        }
        buffer.moveReaderIndex(forwardBy: length)
        return head
    }

    /// The next line of `buffer` without its line break (CRLF or LF), moving past it; nil (the rest carried) when
    /// its end has not come yet.
    private mutating func line(in buffer: inout ByteBuffer, limit: Int) throws(Malformed) -> ByteBuffer? {
        guard let newline = buffer.readableBytesView.firstIndex(of: 0x0A) else {
            guard buffer.readableBytes <= limit else { throw Malformed(why: "a line is longer than \(limit) bytes") }
            carry = buffer
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return nil
        }
        let length = newline - buffer.readerIndex
        guard length <= limit else { throw Malformed(why: "a line is longer than \(limit) bytes") }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == 0x0D { line.moveWriterIndex(to: line.writerIndex - 1) }
        return line
    }

    /// Whether an empty line (LF LF or LF CR LF) is in `buffer` after its first `offset` readable bytes.
    private static func headEnds(in buffer: ByteBuffer, from offset: Int) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            var index = offset
            while let newline = bytes[index...].firstIndex(of: 0x0A) {
                if newline + 1 < bytes.count, bytes[newline + 1] == 0x0A { return true }
                if newline + 2 < bytes.count, bytes[newline + 1] == 0x0D, bytes[newline + 2] == 0x0A { return true }
                index = newline + 1
            }
            return false
        }
    }

    /// A chunk-size line's size (hex digits, then maybe whitespace and extensions after `;`, which are ignored).
    private static func chunkSize(_ line: ByteBuffer) throws(Malformed) -> Int {
        var size = 0, digits = 0
        for byte in line.readableBytesView {
            guard let digit = hexValue(byte) else {
                guard digits > 0, byte == 0x3B || byte == 0x20 || byte == 0x09 else { throw Malformed(why: "a chunk size is not hexadecimal") }
                break
            }
            digits += 1
            guard digits <= 15 else { throw Malformed(why: "a chunk size is too large") }
            size = size << 4 | digit
        }
        guard digits > 0 else { throw Malformed(why: "a chunk size is missing") }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
