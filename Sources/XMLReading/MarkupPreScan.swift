/// One linear pass over the (UTF-8) input before libxml2 sees it: it refuses what no format vplay reads (VAST, DASH
/// manifests) needs and attackers always use, bounds what makes libxml2 slow, and records where each element sits in
/// the input.
///
/// Refused (error 100), wherever it appears outside comments, CDATA sections and attribute values:
/// - any markup declaration (`<!ENTITY`, `<!ELEMENT`, `<!ATTLIST`, `<!NOTATION`, …): neither VAST nor DASH defines a
///   DTD, and an internal subset is how entity bombs and external entities get in;
/// - a `<!DOCTYPE` that is not bare (`<!DOCTYPE VAST>`): an internal subset (`[`), `SYSTEM` or `PUBLIC` after any
///   XML whitespace (space, tab, CR, LF) — found by tokenising the declaration, not by looking for `" SYSTEM"`;
/// - more than `ParserLimits.maxAttributesPerElement` attributes on one element or `maxAttributes` in all: libxml2's
///   duplicate-attribute check is quadratic in the attributes of one element (260 000 attributes on one element of a
///   2 MiB tag took 24 s of CPU);
/// - more than `ParserLimits.maxElements` elements;
/// - anything but whitespace, comments and processing instructions before or after the root element (a second root,
///   trailing text), which Foundation's `XMLParser` on Linux accepts silently.
///
/// Refused anywhere in the input, even inside comments, CDATA and attribute values: a processing instruction with no
/// data (`<?x?>`: a target followed at once by `?>`). libxml2 hands such an instruction to its SAX callback with a
/// NULL data pointer, and Foundation's `XMLParser` on Linux (swift-corelibs-foundation, Swift 6.3.1) calls `strlen` on
/// it: the process dies with SIGSEGV. libxml2 reaches it even from inside an attribute value once it recovers from
/// the `<` there, so this check does not trust context. Found by the `vast` fuzz target (`scripts/fuzz.sh`).
///
/// Because comments, processing instructions, CDATA and quoted attribute values are skipped as units, a comment or
/// PI before the DOCTYPE (`<!-- <a -->`) cannot end the scan early, and `<!ENTITY` inside CDATA text is fine.
///
/// Each element's byte range (start tag to end tag, in start-tag order) is recorded so `<Extension>` can keep its
/// exact bytes. The scan accepts a superset of well-formed XML: whatever it passes, libxml2 still checks.
struct MarkupPreScan {
    /// Why the input is refused.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// Byte range of each element in the input, in the order of their start tags (the order in which `XMLParser`
    /// reports `didStartElement`).
    private(set) var elementRanges: [Range<Int>] = []

    /// Scans `bytes` under `limits`.
    static func scan(_ bytes: [UInt8], limits: ParserLimits, document: String) -> Result<MarkupPreScan, Failure> {
        var scanner = Scanner(bytes: bytes, limits: limits, document: document)
        do {
            try scanner.run()
        } catch {
            return .failure(error)
        }
        var result = MarkupPreScan()
        result.elementRanges = scanner.ranges
        return .success(result)
    }

    private struct Scanner {
        let bytes: [UInt8]
        let limits: ParserLimits
        /// The format, for messages ("VAST", "a DASH manifest").
        let document: String
        var ranges: [Range<Int>] = []
        /// Ordinals of the open elements.
        var open: [Int] = []
        var rootSeen = false
        var totalAttributes = 0

        init(bytes: [UInt8], limits: ParserLimits, document: String) {
            self.bytes = bytes
            self.limits = limits
            self.document = document
        }

        static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), bang = UInt8(ascii: "!"), question = UInt8(ascii: "?")
        static let slash = UInt8(ascii: "/"), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

        static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

        mutating func run() throws(Failure) {
            try refuseProcessingInstructionsWithoutData()
            var i = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            while i < bytes.count {
                if bytes[i] != Self.lt {
                    i = try text(from: i)
                    continue
                }
                if matches("<!--", at: i) {
                    i = try skip(past: "-->", from: i + 4, what: "comment")
                } else if matches("<![CDATA[", at: i) {
                    if open.isEmpty { throw Failure(message: "a CDATA section outside the root element") }
                    i = try skip(past: "]]>", from: i + 9, what: "CDATA section")
                } else if matches("<?", at: i) {
                    i = try skip(past: "?>", from: i + 2, what: "processing instruction")
                } else if matchesIgnoringCase("<!DOCTYPE", at: i) {
                    i = try doctype(at: i)
                } else if i + 1 < bytes.count, bytes[i + 1] == Self.bang {
                    let name = String(decoding: bytes[i..<min(i + 12, bytes.count)].prefix { !Self.isWhitespace($0) }, as: UTF8.self)
                    throw Failure(message: "markup declarations are not allowed in \(document) (\(name)…; entities and DTDs are refused)")
                } else if i + 1 < bytes.count, bytes[i + 1] == Self.slash {
                    i = try endTag(at: i)
                } else {
                    i = try startTag(at: i)
                }
            }
        }

        /// `<?` then one or more bytes that are neither XML whitespace nor `?`, then `?>`: libxml2's PI target
        /// (`xmlParsePITarget`) followed directly by the end of the instruction, which gives Foundation NULL data.
        func refuseProcessingInstructionsWithoutData() throws(Failure) {
            var i = 0
            while let open = bytes[i...].firstIndex(of: Self.lt) {
                i = open + 1
                guard i < bytes.count, bytes[i] == Self.question else { continue }
                var j = i + 1
                while j < bytes.count, bytes[j] != Self.question, !Self.isWhitespace(bytes[j]), bytes[j] != Self.lt { j += 1 }
                if j > i + 1, j + 1 < bytes.count, bytes[j] == Self.question, bytes[j + 1] == Self.gt {
                    let target = String(decoding: bytes[(i + 1)..<min(j, i + 41)], as: UTF8.self)
                    throw Failure(message: "a processing instruction without data (<?\(target)?>) at byte \(open)")
                }
            }
        }

        /// Character data from `i` to the next `<`: only XML whitespace is allowed outside the root element.
        mutating func text(from i: Int) throws(Failure) -> Int {
            let end = bytes[i...].firstIndex(of: Self.lt) ?? bytes.count
            if open.isEmpty, bytes[i..<end].contains(where: { !Self.isWhitespace($0) }) {
                throw Failure(message: rootSeen ? "content after the root element" : "text before the root element")
            }
            return end
        }

        mutating func startTag(at start: Int) throws(Failure) -> Int {
            if open.isEmpty && rootSeen { throw Failure(message: "content after the root element (a second root element)") }
            var i = start + 1
            var attributes = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == Self.quote || b == Self.apostrophe {
                    guard let close = bytes[(i + 1)...].firstIndex(of: b) else { break }
                    i = close + 1
                    continue
                }
                if b == Self.equals {
                    attributes += 1
                    totalAttributes += 1
                    if attributes > limits.maxAttributesPerElement {
                        throw Failure(message: "an element with more than \(limits.maxAttributesPerElement) attributes")
                    }
                    if totalAttributes > limits.maxAttributes {
                        throw Failure(message: "more than \(limits.maxAttributes) attributes")
                    }
                } else if b == Self.gt {
                    let selfClosing = bytes[i - 1] == Self.slash
                    let ordinal = ranges.count
                    if ordinal >= limits.maxElements { throw Failure(message: "more than \(limits.maxElements) elements") }
                    ranges.append(start..<(i + 1))
                    rootSeen = true
                    if !selfClosing { open.append(ordinal) }
                    return i + 1
                } else if b == Self.lt {
                    break
                }
                i += 1
            }
            throw Failure(message: "an unterminated start tag at byte \(start)")
        }

        mutating func endTag(at start: Int) throws(Failure) -> Int {
            guard let close = bytes[start...].firstIndex(of: Self.gt) else {
                throw Failure(message: "an unterminated end tag at byte \(start)")
            }
            guard let ordinal = open.popLast() else {
                throw Failure(message: "an end tag without a start tag at byte \(start)")
            }
            ranges[ordinal] = ranges[ordinal].lowerBound..<(close + 1)
            return close + 1
        }

        /// Only a bare `<!DOCTYPE Name>` passes.
        mutating func doctype(at start: Int) throws(Failure) -> Int {
            if rootSeen || !open.isEmpty { throw Failure(message: "a <!DOCTYPE> after the root element started") }
            var i = start + 9
            var body: [UInt8] = []
            while i < bytes.count, bytes[i] != Self.gt {
                if bytes[i] == UInt8(ascii: "[") || bytes[i] == Self.lt {
                    throw Failure(message: "internal DTD subsets are not allowed in \(document) (<!DOCTYPE … [)")
                }
                body.append(bytes[i])
                i += 1
            }
            guard i < bytes.count else { throw Failure(message: "an unterminated <!DOCTYPE>") }
            let tokens = body.split(whereSeparator: Self.isWhitespace)
            if tokens.count != 1 || !(body.first.map(Self.isWhitespace) ?? false) {
                let words = tokens.map { String(decoding: $0, as: UTF8.self).uppercased() }
                if words.contains("SYSTEM") || words.contains("PUBLIC") {
                    throw Failure(message: "external DTDs are not allowed in \(document) (<!DOCTYPE … SYSTEM/PUBLIC)")
                }
                throw Failure(message: "only a bare <!DOCTYPE Name> is allowed in \(document)")
            }
            return i + 1
        }

        func skip(past terminator: StaticString, from i: Int, what: String) throws(Failure) -> Int {
            var j = i
            let first = terminator.utf8Start.pointee
            while j < bytes.count {
                guard let k = bytes[j...].firstIndex(of: first) else { break }
                if matches(terminator, at: k) { return k + terminator.utf8CodeUnitCount }
                j = k + 1
            }
            throw Failure(message: "an unterminated \(what)")
        }

        func matches(_ text: StaticString, at index: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return text.withUTF8Buffer { pattern in
                for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
                return true
            }
        }

        func matchesIgnoringCase(_ text: StaticString, at index: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return text.withUTF8Buffer { pattern in
                for offset in 0..<count {
                    let a = bytes[index + offset], b = pattern[offset]
                    let lowerA = (a >= 65 && a <= 90) ? a + 32 : a
                    let lowerB = (b >= 65 && b <= 90) ? b + 32 : b
                    if lowerA != lowerB { return false }
                }
                return true
            }
        }
    }
}
