import Foundation

/// Turns the input into well-formed UTF-8 before libxml2 sees it.
///
/// Why: FoundationXML's `XMLParser` on Linux traps (crashes the process) when libxml2 hands it an element name that
/// is not valid UTF-8, which libxml2 does for undeclared-encoding input with stray bytes (found by the mutation
/// test: one flipped bit in `<Tracking>`). So every input is decoded here first:
/// - a UTF-32 or UTF-16 byte-order mark, a BOM-less UTF-32 or UTF-16 `<` (`3C 00 00 00`, `3C 00` little-endian;
///   `00 00 00 3C`, `00 3C` big-endian), or a declared
///   `encoding` of UTF-16, ISO-8859-1/Latin-1, Windows-1252 or US-ASCII,
///   is decoded and re-encoded as UTF-8 (with the declaration rewritten to `UTF-8`);
/// - anything else must be valid UTF-8 (the XML default), or it is rejected (error 100).
enum XMLInputDecoder {
    struct Failure: Error {
        var message: String
    }

    static func utf8(_ data: Data) -> Result<Data, Failure> {
        let bytes = [UInt8](data.prefix(4))
        // UTF-32 first (its little-endian mark starts as UTF-16's does), with or without its mark (XML 1.0 Appendix F).
        if bytes == [0xFF, 0xFE, 0x00, 0x00] || bytes == [0x3C, 0x00, 0x00, 0x00] {
            return reencode(data, as: .utf32LittleEndian, label: "UTF-32LE")
        }
        if bytes == [0x00, 0x00, 0xFE, 0xFF] || bytes == [0x00, 0x00, 0x00, 0x3C] {
            return reencode(data, as: .utf32BigEndian, label: "UTF-32BE")
        }
        // A byte-order mark twice (a server adding one to a file that has one): said as such, not as "text".
        if data.starts(with: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]) || data.starts(with: [0xFF, 0xFE, 0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF, 0xFE, 0xFF]) {
            return .failure(Failure(message: "two byte-order marks before the document (one is allowed)"))
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return reencode(data, as: .utf16, label: "UTF-16")  // the byte-order mark says which
        }
        // No byte-order mark (XML requires one for UTF-16, but real servers omit it): `<` as 3C 00 is little-endian,
        // 00 3C big-endian (XML 1.0 Appendix F). Plain `.utf16` would assume big-endian for both.
        if bytes.starts(with: [0x3C, 0x00]) {
            return reencode(data, as: .utf16LittleEndian, label: "UTF-16LE")
        }
        if bytes.starts(with: [0x00, 0x3C]) {
            return reencode(data, as: .utf16BigEndian, label: "UTF-16BE")
        }
        switch declaredEncoding(data)?.lowercased() {
        case nil, "utf-8", "utf8":
            break
        case "us-ascii", "ascii":
            break  // ASCII is a subset of UTF-8; the validation below rejects any byte above 0x7F.
        case "iso-8859-1", "latin1", "latin-1", "iso_8859-1", "l1":
            return reencode(data, as: .isoLatin1, label: "ISO-8859-1")
        case "windows-1252", "cp1252":
            return reencode(data, as: .windowsCP1252, label: "windows-1252")
        case "utf-16", "utf16":
            return reencode(data, as: .utf16, label: "UTF-16")
        case let other?:
            return .failure(Failure(message: "unsupported encoding \"\(other)\""))
        }
        guard String(validating: data, as: UTF8.self) != nil else {
            return .failure(Failure(message: "input is not valid UTF-8"))
        }
        return .success(data)
    }

    /// The `encoding` pseudo-attribute of an ASCII-compatible XML declaration, if any.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = data.prefix(256)
        guard head.starts(with: Array("<?xml".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8)),
              let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[head.startIndex..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func reencode(_ data: Data, as encoding: String.Encoding, label: String) -> Result<Data, Failure> {
        guard var text = String(data: data, encoding: encoding) else {
            return .failure(Failure(message: "input is not valid \(label)"))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.hasPrefix("<?xml"), let end = text.firstIndex(of: ">") {
            let declaration = String(text[text.startIndex...end])
            let rewritten = declaration.replacingOccurrences(
                of: #"encoding\s*=\s*["'][^"']*["']"#, with: #"encoding="UTF-8""#, options: .regularExpression)
            text = rewritten + text[text.index(after: end)...]
        }
        return .success(Data(text.utf8))
    }
}
