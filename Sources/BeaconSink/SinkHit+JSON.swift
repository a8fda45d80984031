import Primitives

extension SinkHit {
    /// The hit as one line of compact JSON (no trailing newline), keys sorted, `null` for absent values,
    /// slashes unescaped: the form of the hit log and `/__vplay/hits`, and decodable with `JSONDecoder`
    /// into a `SinkHit`. Written by hand because it runs once per hit on the serving threads, where
    /// Foundation's `JSONEncoder` cost about as much as answering the request.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + target.utf8.count * 2 + (userAgent?.utf8.count ?? 0))
        appendJSON(to: &out)
        return out
    }

    /// Encodes `hits` as a JSON array of ``jsonBytes`` objects.
    public static func jsonArray(_ hits: [SinkHit]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, hit) in hits.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            hit.appendJSON(to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    func appendJSON(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"connection":"#.utf8)
        out.append(contentsOf: String(connection).utf8)
        out.append(contentsOf: #","device":"#.utf8)
        if let device {
            out.append(contentsOf: #"{"forwardedFor":"#.utf8)
            Self.append(string: device.forwardedFor, to: &out)
            out.append(contentsOf: #","ip":"#.utf8)
            Self.append(string: device.ip, to: &out)
            out.append(contentsOf: #","userAgent":"#.utf8)
            Self.append(string: device.userAgent, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","fault":"#.utf8)
        Self.append(string: fault, to: &out)
        out.append(contentsOf: #","host":"#.utf8)
        Self.append(string: host, to: &out)
        out.append(contentsOf: #","method":"#.utf8)
        Self.append(string: method, to: &out)
        out.append(contentsOf: #","path":"#.utf8)
        Self.append(string: path, to: &out)
        out.append(contentsOf: #","query":"#.utf8)
        Self.append(string: query, to: &out)
        out.append(contentsOf: #","range":"#.utf8)
        Self.append(string: range, to: &out)
        // The instant as every other vplay output writes one (ISO 8601 UTC, milliseconds), and as milliseconds since
        // 1970 for readers of earlier logs.
        out.append(contentsOf: #","receivedAt":""#.utf8)
        out.append(contentsOf: ISO8601Time.text(milliseconds: receivedAtMilliseconds).utf8)
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: #","receivedAtMilliseconds":"#.utf8)
        out.append(contentsOf: String(receivedAtMilliseconds).utf8)
        out.append(contentsOf: #","sequence":"#.utf8)
        out.append(contentsOf: String(sequence).utf8)
        out.append(contentsOf: #","status":"#.utf8)
        out.append(contentsOf: (status.map { String($0) } ?? "null").utf8)
        out.append(contentsOf: #","target":"#.utf8)
        Self.append(string: target, to: &out)
        out.append(contentsOf: #","userAgent":"#.utf8)
        Self.append(string: userAgent, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string literal (or `null`): `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or
    /// `\u00XX`, everything else as its UTF-8 bytes.
    private static func append(string: String?, to out: inout [UInt8]) {
        guard let string else {
            out.append(contentsOf: "null".utf8)
            return
        }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
