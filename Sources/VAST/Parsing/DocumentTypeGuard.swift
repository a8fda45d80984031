/// Refuses what VAST never needs and attackers always use: entity declarations and external DTDs in the prolog.
///
/// libxml2 stops a nested-entity bomb quickly, but a single large entity referenced many times (a quadratic
/// blow-up) still costs seconds of CPU after the parser is told to abort, and an external entity or DTD is a
/// file-read or network-fetch primitive however it is configured. No VAST version defines a DTD, so a document
/// whose prolog declares an entity (`<!ENTITY`) or names an external DTD (`<!DOCTYPE … SYSTEM|PUBLIC`) is rejected
/// before libxml2 sees it (error 100). A bare `<!DOCTYPE VAST>` is allowed.
enum DocumentTypeGuard {
    /// Why `utf8` must not be parsed, or nil.
    static func refusal(_ utf8: [UInt8]) -> String? {
        let prolog = prologEnd(utf8)
        var index = 0
        while index < prolog {
            if matches(utf8, at: index, "<!ENTITY") { return "entity declarations are not allowed in VAST (<!ENTITY)" }
            if matches(utf8, at: index, "<!DOCTYPE") {
                let end = utf8[index..<prolog].firstIndex(of: UInt8(ascii: ">")) ?? prolog
                let declaration = String(decoding: utf8[index..<end], as: UTF8.self).uppercased()
                if declaration.contains(" SYSTEM") || declaration.contains(" PUBLIC") || declaration.contains("[") {
                    return "external or internal DTDs are not allowed in VAST (<!DOCTYPE with SYSTEM, PUBLIC or [)"
                }
            }
            index += 1
        }
        return nil
    }

    /// Where the root element starts: the first `<` followed by a name character (not `<?` or `<!`).
    private static func prologEnd(_ utf8: [UInt8]) -> Int {
        var index = 0
        while index + 1 < utf8.count {
            if utf8[index] == UInt8(ascii: "<") {
                let next = utf8[index + 1]
                let isName = (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next == UInt8(ascii: "_") || next >= 0x80
                if isName { return index }
            }
            index += 1
        }
        return utf8.count
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { pattern in
            for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
            return true
        }
    }
}
