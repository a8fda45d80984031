
/// The one scanner of URL text in vplay: a fleet reads every beacon's URL several times (checking it, routing it to
/// the sink, writing its request line, counting its target), so that reading is done here, once, on the bytes, and
/// nowhere else. `RequestURL` and `SinkRouting` take their parts from it; what is not plain they leave to Foundation.
public enum URLScanner {
    /// The one entry point: `body` gets `text`'s bytes (a native string's own, any other made so first) and where its
    /// parts are; nil when `text` has no `scheme://`.
    public static func withScan<Result>(of text: String, _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ scan: URLScan?) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in body(bytes, scan(bytes)) }
    }

    /// The scan itself: one pass over the bytes, by offset (a string's UTF-8 view walked by index cost several times
    /// more per byte, for every beacon).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> URLScan? {
        let https: Bool
        if hasPrefix(bytes, "http://") {
            https = false
        } else if hasPrefix(bytes, "https://") {
            https = true
        } else {
            return otherTarget(bytes).map { .other(target: $0) }
        }
        let classes = byteClassTable
        var index = https ? 8 : 7
        let hostStart = index
        var colon: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2F || byte == 0x3F { break }  // / ?
            if byte == 0x3A {  // :port
                if colon != nil { return .other(target: otherTarget(bytes) ?? nil) }
                colon = index
            } else if colon != nil {
                guard byte >= 0x30 && byte <= 0x39 else { return .other(target: otherTarget(bytes) ?? nil) }
            } else {
                guard classes[Int(byte)] == 1 else { return .other(target: otherTarget(bytes) ?? nil) }  // a host byte
            }
            index += 1
        }
        guard (colon ?? index) > hostStart else { return .other(target: otherTarget(bytes) ?? nil) }
        let authorityEnd = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x25 {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    return .other(target: otherTarget(bytes) ?? nil)
                }
                index += 3
                continue
            } else if classes[Int(byte)] == 0 {  // neither a host nor a path byte (a `#` among them: no fragment)
                return .other(target: otherTarget(bytes) ?? nil)
            }
            index += 1
        }
        let port = colon.map { ($0 + 1)..<authorityEnd }
        return .plain(https: https, host: hostStart..<(colon ?? authorityEnd), port: port, target: authorityEnd..<bytes.count)
    }

    /// The request target of text that is not plain: nil when it has no `scheme://` at all, `.some(nil)` when it has
    /// no target (no path or query, or a fragment first).
    private static func otherTarget(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>?? {
        guard let colon = bytes.firstIndex(of: 0x3A), colon + 3 <= bytes.count, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F else {
            return nil
        }
        var start = colon + 3
        while start < bytes.count, bytes[start] != 0x2F, bytes[start] != 0x3F, bytes[start] != 0x23 { start += 1 }
        guard start < bytes.count, bytes[start] != 0x23 else { return .some(nil) }
        var end = start
        while end < bytes.count, bytes[end] != 0x23 { end += 1 }
        return start..<end
    }

    /// Whether `bytes` start with `prefix`, compared byte by byte.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount, start = prefix.utf8Start
        guard bytes.count >= count else { return false }
        for offset in 0..<count where bytes[offset] != start[offset] { return false }
        return true
    }

    /// Each byte's class, looked up once per byte of every URL scanned (the table read once per URL): 1 a host byte
    /// (letters, digits, `-`, `.`, `_`, `~`: a host name or an IPv4 address as written), 2 a path byte (the
    /// sub-delimiters `! $ & ' ( ) * + , ; =` and `: @ / ?`), 0 anything else.
    /// (Kept at a fixed address, made once and never freed: read through a pointer, with no bounds check or
    /// reference count per URL as an array's. Never written after it is made: `nonisolated(unsafe)` only because a
    /// pointer is not `Sendable`.)
    nonisolated(unsafe) private static let byteClassTable: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0...255 {
            table[byte] = switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: 1
            case 0x21, 0x24, 0x26...0x2C, 0x3B, 0x3D, 0x3A, 0x40, 0x2F, 0x3F: 2
            default: 0
            }
        }
        return UnsafePointer(table)
    }()
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
