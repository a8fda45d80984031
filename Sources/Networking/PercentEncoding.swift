/// RFC 3986 percent-encoding of a macro value, shared by the beacon macro expander (TrackingBeacons) and the
/// wrapper resolver (VAST), which fills `[BLOCKEDADCATEGORIES]` from the chain before the session's expansion.
public enum PercentEncoding {
    /// Everything but unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so `00:00:05.000` becomes
    /// `00%3A00%3A05.000` and a URL value cannot break out of its query parameter.
    public static func rfc3986(_ value: String) -> String {
        // Most values (numbers, ids, time stamps without colons) need nothing: returned as they are.
        let unreserved = self.unreserved
        guard !value.utf8.allSatisfy({ unreserved[Int($0)] }) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 3)
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `rfc3986(value)`'s bytes appended to `output` (a URL being expanded), without building it first: every
    /// unreserved byte as it is, each other byte as its `%XX` (every byte of a multi-byte character is encoded).
    public static func append(_ value: String, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            let (unreserved, hexDigits) = (self.unreserved, self.hexDigits)
            // Runs of unreserved bytes are appended at once: a byte at a time, each append checked the array's
            // uniqueness (about twenty a beacon in a fleet).
            var index = 0
            while index < bytes.count {
                var end = index
                while end < bytes.count, unreserved[Int(bytes[end])] { end += 1 }
                if end > index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end])) }
                guard end < bytes.count else { break }
                let byte = bytes[end]
                output.append(37)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
                index = end + 1
            }
        }
    }

    /// Whether each byte is unreserved (`A–Z a–z 0–9 - . _ ~`), looked up once per byte of every value encoded (the
    /// table read once per value).
    private static let unreserved: [Bool] = (0...255).map { byte in
        switch byte {
        case 65...90, 97...122, 48...57, 45, 46, 95, 126: true
        default: false
        }
    }

    /// A list macro's value (VAST 4.x §6.1): each element encoded on its own, joined with a literal `,`.
    public static func list(_ items: [String]) -> String {
        items.map(rfc3986).joined(separator: ",")
    }
}
