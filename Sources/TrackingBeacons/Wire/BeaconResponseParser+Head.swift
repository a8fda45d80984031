import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Networking

/// The head of an answer: status line and the headers that frame its body, read in place from the bytes.
extension BeaconResponseParser {
    enum Framing: Equatable {
        /// No body (204, 304).
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    struct ParsedHead: Equatable {
        var head: Head
        var framing: Framing
    }

    /// The head at the start of `buffer` and its length in bytes (up to and with the empty line that ends it); nil
    /// when that line has not come yet.
    static func head(in buffer: ByteBuffer, keepsHeaders: Bool) throws(Malformed) -> (ParsedHead, Int)? {
        do {
            return try buffer.withUnsafeReadableBytes { bytes in
                var reader = HeadReader(bytes: bytes, keepsHeaders: keepsHeaders)
                return try reader.read()
            }
        } catch let error as Malformed {
            throw error
        } catch {
            throw Malformed(why: "\(error)")
        }
    }

    private struct HeadReader {
        let bytes: UnsafeRawBufferPointer
        let keepsHeaders: Bool
        var status = 0
        var minorVersion = 1
        var headers: [HeaderField] = []
        var location: String?
        var contentLength: Int?
        var transferEncoding = false
        var chunked = false
        var close = false
        var keepAlive = false
        /// The field the last line set, for an obsolete folded line continuing it.
        var lastField: Field?

        enum Field { case location, framing, other }

        init(bytes: UnsafeRawBufferPointer, keepsHeaders: Bool) {
            self.bytes = bytes
            self.keepsHeaders = keepsHeaders
        }

        mutating func read() throws(Malformed) -> (ParsedHead, Int)? {
            var start = 0
            var sawStatus = false
            while true {
                guard let newline = index(of: 0x0A, in: start..<bytes.count) else { return nil }
                var end = newline
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                let line = start..<end
                start = newline + 1
                if !sawStatus {
                    // Empty lines before the status line are skipped (RFC 9112 §2.2).
                    guard !line.isEmpty else { continue }
                    try statusLine(line)
                    sawStatus = true
                } else if line.isEmpty {
                    return (ParsedHead(head: Head(status: status, headers: headers, location: location, keepAlive: reusable), framing: framing), start)
                } else {
                    try field(line)
                }
            }
        }

        /// What ends the body.
        var framing: Framing {
            if status == 204 || status == 304 || (100..<200).contains(status) { return .none }
            if transferEncoding { return chunked ? .chunked : .untilClose }
            return contentLength.map(Framing.length) ?? .untilClose
        }

        var reusable: Bool {
            guard framing != .untilClose, !close else { return false }
            // Both framings given: the message is suspect, the connection is not reused (RFC 9112 §6.3).
            if transferEncoding, contentLength != nil { return false }
            return minorVersion == 1 || keepAlive
        }

        private mutating func statusLine(_ line: Range<Int>) throws(Malformed) {
            // HTTP/1.x SP 3DIGIT [SP reason]
            guard line.count >= 12, equals(line.lowerBound..<line.lowerBound + 7, "HTTP/1.") else {
                throw Malformed(why: "no HTTP/1.x status line")
            }
            let minor = bytes[line.lowerBound + 7]
            guard minor == 0x30 || minor == 0x31, bytes[line.lowerBound + 8] == 0x20 else { throw Malformed(why: "no HTTP/1.x status line") }
            minorVersion = Int(minor - 0x30)
            var code = 0
            for index in line.lowerBound + 9..<line.lowerBound + 12 {
                let byte = bytes[index]
                guard (0x30...0x39).contains(byte) else { throw Malformed(why: "the status code is not three digits") }
                code = code * 10 + Int(byte - 0x30)
            }
            guard line.count == 12 || bytes[line.lowerBound + 12] == 0x20 else { throw Malformed(why: "the status code is not three digits") }
            guard code >= 100 else { throw Malformed(why: "status \(code)") }
            status = code
        }

        private mutating func field(_ line: Range<Int>) throws(Malformed) {
            if bytes[line.lowerBound] == 0x20 || bytes[line.lowerBound] == 0x09 {
                // An obsolete folded line: more of the field before it, after a space (RFC 9112 §5.2).
                switch lastField {
                case nil: throw Malformed(why: "a folded line with no field before it")
                case .framing: throw Malformed(why: "a framing field folded over lines")
                case .location:
                    location = (location ?? "") + " " + text(trimmed(line))
                case .other: break
                }
                if keepsHeaders, !headers.isEmpty { headers[headers.count - 1].value += " " + text(trimmed(line)) }
                return
            }
            // The name up to the colon, each byte a token's; then the value, no control byte in it. One loop each, by
            // offset.
            var colon = line.lowerBound
            while colon < line.upperBound {
                let byte = bytes[colon]
                if byte == 0x3A { break }
                guard Self.isTokenByte(byte) else {
                    throw Malformed(why: "a header field's name is not a token")
                }
                colon += 1
            }
            guard colon < line.upperBound, colon > line.lowerBound else { throw Malformed(why: "a header line is not a field") }
            let name = line.lowerBound..<colon
            let value = trimmed(colon + 1..<line.upperBound)
            for offset in value {
                let byte = bytes[offset]
                guard byte >= 0x20 ? byte != 0x7F : byte == 0x09 else { throw Malformed(why: "a header field's value holds a control byte") }
            }
            lastField = .other
            if equalsLowercased(name, "content-length") {
                lastField = .framing
                try contentLength(value)
            } else if equalsLowercased(name, "transfer-encoding") {
                lastField = .framing
                transferEncoding = true
                // Chunked only when it is the last coding; otherwise the body runs to the close (RFC 9112 §6.3).
                var last: Range<Int>?
                forEachToken(value) { last = $0 }
                chunked = last.map { equalsLowercased($0, "chunked") } ?? false
            } else if equalsLowercased(name, "connection") {
                lastField = .framing
                forEachToken(value) { token in
                    if equalsLowercased(token, "close") { close = true }
                    if equalsLowercased(token, "keep-alive") { keepAlive = true }
                }
            } else if equalsLowercased(name, "location") {
                lastField = .location
                location = text(value)
            }
            if keepsHeaders { headers.append(HeaderField(name: text(name), value: text(value))) }
        }

        /// `Content-Length`: digits, or a list of the same digits; differing values are refused (RFC 9112 §6.3).
        private mutating func contentLength(_ value: Range<Int>) throws(Malformed) {
            try forEachToken(value) { (item) throws(Malformed) in
                guard !item.isEmpty, item.count <= 18, bytes[item].allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw Malformed(why: "Content-Length is not a number")
                }
                let length = bytes[item].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                guard contentLength == nil || contentLength == length else { throw Malformed(why: "Content-Length values differ") }
                contentLength = length
            }
        }

        /// Calls `body` with each comma-separated item of a field's value, in order, each trimmed; empty ones
        /// skipped. (No array of them: this runs for each answer's `Connection` field.)
        private func forEachToken<E: Error>(_ value: Range<Int>, _ body: (Range<Int>) throws(E) -> Void) throws(E) {
            var start = value.lowerBound
            for index in value.lowerBound...value.upperBound where index == value.upperBound || bytes[index] == 0x2C {
                let item = trimmed(start..<index)
                if !item.isEmpty { try body(item) }
                start = index + 1
            }
        }

        /// The first offset of `byte` in `range`, if any: `memchr`, which compares many bytes an instruction (a slice
        /// searched with `firstIndex` cost several times more a byte than a loop by offset, and a loop several times
        /// more than this, on every line of every answer).
        private func index(of byte: UInt8, in range: Range<Int>) -> Int? {
            guard !range.isEmpty, let base = bytes.baseAddress,
                  let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }

        /// Whether `range` is exactly `text`. (Compared by offset: `elementsEqual` over a slice walked it as a generic
        /// sequence, for every status line.)
        private func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
            guard range.count == text.utf8CodeUnitCount else { return false }
            let expected = text.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
            return true
        }

        private func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            return lower..<upper
        }

        /// Whether `range` is `lowercase` (ASCII letters compared without case).
        private func equalsLowercased(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
            guard range.count == lowercase.utf8CodeUnitCount else { return false }
            let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            for offset in 0..<range.count {
                let byte = bytes[range.lowerBound + offset]
                let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                guard lowered == expected[offset] else { return false }
            }
            return true
        }

        private func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// tchar (RFC 9110 §5.6.2).
        private static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
            default: false
            }
        }
    }
}
