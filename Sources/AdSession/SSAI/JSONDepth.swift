import Foundation

/// How deep a JSON text nests, found before it is parsed: a document of ten thousand `[` would otherwise reach the
/// parser's own limit (or the stack) first.
enum JSONDepth {
    /// The byte offset where nesting first goes deeper than `limit`; nil when it never does. Brackets inside
    /// strings do not count.
    static func exceeds(_ data: Data, limit: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }
}
