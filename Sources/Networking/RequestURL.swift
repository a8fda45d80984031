import Foundation

/// A URL vplay may request over HTTP(S), checked before any client sees it: every tracking URL, tag, wrapper target,
/// media URL and redirect target goes through `RequestURL.check` first.
///
/// What it refuses would otherwise crash or mislead a client: a port outside 1…65535 (`http://127.0.0.1:99999/`
/// traps inside SwiftNIO's address set-up), a scheme other than http and https, no host, an IPv6 literal that is no
/// address, control characters or spaces, and URLs longer than `maxLength`. The checked authority is compared with
/// what Foundation's `URL` (which async-http-client parses with) makes of the same text, so the client connects
/// where the check looked.
public struct RequestURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as it will be requested (what `url.absoluteString` gives).
    public let text: String
    /// Foundation's parse, when the check needed one; a plain URL is parsed only when `url` is asked for.
    private let parsed: URL?
    /// `http` or `https`, lower case.
    public let scheme: String
    /// The host as written, without the brackets of an IPv6 literal, lower case.
    public let host: String
    /// The port to connect to: the one written, else the scheme's default.
    public let port: Int
    /// A plain URL's request target's UTF-8 offset in `text` (its path and query run to the end: a plain URL has no
    /// fragment); nil when the URL is not plain, and the target is found in `text` when asked for.
    private let plainTargetStart: Int?

    /// The URL as Foundation reads it (async-http-client's input, the base of a relative redirect).
    public var url: URL {
        // A plain URL's text is one Foundation reads as written (`plainParts`); the fallback is never taken.
        parsed ?? URL(string: text) ?? URL(string: "http://invalid.invalid/")!
    }

    public static func == (lhs: RequestURL, rhs: RequestURL) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Longer URLs are refused: no server takes them (nginx's default limit is 8 KiB a request line), and a tag
    /// full of megabyte URLs should not become megabytes of requests.
    public static let maxLength = 64 * 1024

    public var description: String { text }

    /// The request target, as written: the path (at least `/`) and the query, percent-encoding kept, no fragment.
    /// Read off the checked text (cheaper than `URLComponents`, which a fleet would pay per beacon).
    public var requestTarget: String { Self.target(requestTargetParts) }

    /// `requestTarget` without making it: whether it starts with a `/` that is not in the text (a URL with no
    /// path), then the text's path and query (empty, or from its first `/` or `?`). A request line can be written
    /// from them straight.
    public var requestTargetParts: (slash: Bool, rest: Substring) {
        guard let start = plainTargetStart else { return Self.requestTargetParts(of: text) }
        let rest = Substring(text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: start)...])
        return (rest.utf8.first != UInt8(ascii: "/"), rest)
    }

    /// `requestTargetParts` as bytes, for writing a request line straight from them: whether a `/` goes first, then
    /// the text's path and query (empty when the URL has none).
    public func withRequestTargetBytes<Result>(_ body: (_ slash: Bool, _ rest: UnsafeRawBufferPointer) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            let (start, end) = plainTargetStart.map { ($0, bytes.count) } ?? Self.targetOffsets(bytes) ?? (bytes.count, bytes.count)
            let rest = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<end])
            return body(rest.first != UInt8(ascii: "/"), rest)
        }
    }

    /// The request target of a checked URL's text (its scheme, then `://`), scanned as UTF-8: the delimiters are ASCII.
    static func requestTargetParts(of text: String) -> (slash: Bool, rest: Substring) {
        // Scanned by offset over the bytes themselves (`withUTF8`: a native string's, any other made so first): the
        // view's own index walk costs several times more per byte, for every beacon.
        var text = text
        guard let (start, end) = text.withUTF8(targetOffsets) else { return (true, "") }
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start), to = utf8.index(utf8.startIndex, offsetBy: end)
        return (utf8[from] == 0x3F, text[from..<to])
    }

    /// Whether `bytes` start with `prefix`, compared byte by byte (`starts(with:)` over a string's UTF-8 view walked
    /// it as a generic sequence, for every URL checked).
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount, start = prefix.utf8Start
        guard bytes.count >= count else { return false }
        for offset in 0..<count where bytes[offset] != start[offset] { return false }
        return true
    }

    /// `requestTargetParts(of:)` on contiguous bytes: the offsets of the target's first byte (a `/` or `?` after the
    /// scheme's `://`) and of its end (a `#`, or the end); nil when there is no target (no path, or a fragment first).
    private static func targetOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int)? {
        guard let colon = bytes.firstIndex(of: 0x3A), colon + 3 <= bytes.count else { return nil }
        var start = colon + 3
        while start < bytes.count, bytes[start] != 0x2F, bytes[start] != 0x3F, bytes[start] != 0x23 { start += 1 }
        guard start < bytes.count, bytes[start] != 0x23 else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != 0x23 { end += 1 }
        return (start, end)
    }

    /// A request target made from its parts (`requestTargetParts`, `PlainParts.targetParts`): at least `/`.
    static func target(_ parts: (slash: Bool, rest: Substring)) -> String {
        parts.slash ? "/" + parts.rest : String(parts.rest)
    }

    /// The parts of a plain http(s) URL (`plainParts(of:)`), as written.
    public struct PlainParts: Sendable {
        /// `http` or `https`.
        public let scheme: String
        public let host: Substring
        /// The port as written; nil when none is written or it is empty.
        public let port: Substring?
        /// The path and query as written (from the first `/` or `?`, or empty).
        public let pathAndQuery: Substring
        /// The request target: the path (at least `/`) and the query, made only when asked for.
        public var target: String { RequestURL.target(targetParts) }
        /// `target` without making it, as `RequestURL.requestTargetParts` gives it: whether a `/` goes before
        /// `pathAndQuery` (it is empty or starts with `?`), then `pathAndQuery`.
        public var targetParts: (slash: Bool, rest: Substring) { (pathAndQuery.utf8.first != UInt8(ascii: "/"), pathAndQuery) }
    }

    /// The scheme, host, port text and request target of a plain http(s) URL, read off its bytes without a URL
    /// parser; nil when `text` is anything else — another scheme, credentials, an IPv6 literal, a fragment, a `%`
    /// not followed by two hex digits, any character but the unreserved ones, the sub-delimiters and `: @ / ?` —
    /// which callers then parse with Foundation. Foundation reads a plain URL as written. A fleet reads every
    /// beacon's URL several times: checking it, routing it, counting its target.
    public static func plainParts(of text: String) -> PlainParts? {
        var text = text
        // One pass over the bytes themselves (`withUTF8`: a native string's, any other made so first).
        guard let offsets = text.withUTF8(plainOffsets) else { return nil }
        let utf8 = text.utf8
        func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let hostStart = at(offsets.https ? 8 : 7), authorityEnd = at(offsets.authorityEnd)
        let hostEnd = offsets.colon.map(at) ?? authorityEnd
        let port = offsets.colon.map { text[utf8.index(after: at($0))..<authorityEnd] }
        return PlainParts(scheme: offsets.https ? "https" : "http", host: text[hostStart..<hostEnd],
                          port: port.flatMap { $0.isEmpty ? nil : $0 }, pathAndQuery: text[authorityEnd...])
    }

    /// `plainParts(of:)` as byte offsets, with no substring made: `body` gets the text's bytes, its host's range and
    /// where its request target starts (it runs to the end: a plain URL has no fragment). Nil when the URL is not
    /// plain. (A fleet routing every beacon to a collector reads each URL so.)
    public static func withPlainBytes<Result>(of text: String,
                                              _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ host: Range<Int>, _ targetStart: Int) -> Result) -> Result? {
        var text = text
        return text.withUTF8 { bytes -> Result? in
            guard let offsets = plainOffsets(bytes) else { return nil }
            return body(bytes, (offsets.https ? 8 : 7)..<(offsets.colon ?? offsets.authorityEnd), offsets.authorityEnd)
        }
    }

    /// `plainParts`'s scan of the bytes: whether the scheme is https, where the port's `:` is (nil without one) and
    /// where the authority ends; nil when the URL is not plain.
    private static func plainOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> (https: Bool, colon: Int?, authorityEnd: Int)? {
        let https: Bool
        if hasPrefix(bytes, "http://") {
            https = false
        } else if hasPrefix(bytes, "https://") {
            https = true
        } else {
            return nil
        }
        let classes = byteClassTable
        var index = https ? 8 : 7
        let hostStart = index
        var colon: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2F || byte == 0x3F { break }  // / ?
            if byte == 0x3A {  // :port
                if colon != nil { return nil }
                colon = index
            } else if colon != nil {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
            } else {
                guard classes[Int(byte)] == 1 else { return nil }  // a host byte
            }
            index += 1
        }
        guard (colon ?? index) > hostStart else { return nil }
        let authorityEnd = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x25 {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return nil }
                index += 3
                continue
            } else if classes[Int(byte)] == 0 {  // neither a host nor a path byte
                return nil
            }
            index += 1
        }
        // No fragment is let through: the rest is the path and query.
        return (https, colon, authorityEnd)
    }

    /// Each byte's class, looked up once per byte of every URL checked (the table read once per URL): 1 a host byte
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

    /// Checks `text` (an absolute URL).
    public static func check(_ text: String) throws(URLRefusal) -> RequestURL {
        guard text.utf8.count <= maxLength else { throw .tooLong(text.utf8.count) }
        // A plain URL (most tracking URLs): read off its bytes in one pass, as Foundation would read it.
        switch checkPlain(text) {
        case let .plain(url): return url
        case let .badPort(port): throw .badPort(port)
        case .notPlain: break
        }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }) {
            throw .forbiddenCharacter(bad.value)
        }
        guard let colon = text.firstIndex(of: ":") else { throw .notAbsolute }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
                throw .notAbsolute
            }
            throw .schemeNotAllowed(scheme)
        }
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { throw .noHost }
        let authorityStart = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
        let rest = afterScheme[authorityStart...]
        let authority = rest[..<(rest.firstIndex(where: { "/?#\\".contains($0) }) ?? rest.endIndex)]
        // Credentials in a tracking URL are refused, not sent: a URL that logs into someone's server is no beacon.
        guard !authority.contains("@") else { throw .credentials }
        let (host, portText) = try split(authority)
        guard !host.isEmpty else { throw .noHost }
        let defaultPort = scheme == "https" ? 443 : 80
        var port = defaultPort
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(portText),
                  (1...65_535).contains(value) else { throw .badPort(String(portText)) }
            port = value
        }
        if host.hasPrefix("[") {
            let literal = String(host.dropFirst().dropLast())
            guard IPAddress(literal) != nil, literal.contains(":") else { throw .badHost(String(host)) }
        } else {
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%!$&'()*+,;=".contains($0)) }) else {
                throw .badHost(String(host))
            }
        }
        // The client parses with Foundation: it must see the same host and port (else it would connect elsewhere).
        guard let url = URL(string: text), let parsedHost = url.host, !parsedHost.isEmpty else { throw .notAbsolute }
        let plainHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : String(host)
        let parsedPlain = parsedHost.hasPrefix("[") ? String(parsedHost.dropFirst().dropLast()) : parsedHost
        guard parsedPlain.lowercased() == plainHost.lowercased(), (url.port ?? defaultPort) == port else {
            throw .ambiguous
        }
        return RequestURL(text: url.absoluteString, parsed: url, scheme: scheme, host: plainHost.lowercased(), port: port, plainTargetStart: nil)
    }

    private enum PlainCheck {
        case plain(RequestURL)
        case badPort(String)
        case notPlain
    }

    /// `check` of a plain URL (`plainParts(of:)`), done on its bytes: the host made lower case from them, the port
    /// read from its digits, the target's offset kept. A fleet checks every beacon's URL; its scheme, host and port
    /// taken as substrings first cost more than the scan itself.
    private static func checkPlain(_ text: String) -> PlainCheck {
        withPlainBytes(of: text) { bytes, hostRange, targetStart -> PlainCheck in
            // The host ends at the port's `:` when there is one, else where the target starts.
            let https = hostRange.lowerBound == 8, hostStart = hostRange.lowerBound, hostEnd = hostRange.upperBound
            var port = https ? 443 : 80
            if hostEnd + 1 < targetStart {
                // Digits only (`plainOffsets`): at most five, in 1…65535.
                let digits = bytes[(hostEnd + 1)..<targetStart]
                var value = 0
                for digit in digits.prefix(5) { value = value * 10 + Int(digit - 0x30) }
                guard digits.count <= 5, (1...65_535).contains(value) else {
                    return .badPort(String(decoding: UnsafeBufferPointer(rebasing: digits), as: UTF8.self))
                }
                port = value
            }
            // Host bytes are ASCII letters, digits and `-._~` (`plainOffsets`): lower case byte by byte.
            let host = String(unsafeUninitializedCapacity: hostEnd - hostStart) { buffer in
                for offset in hostStart..<hostEnd {
                    let byte = bytes[offset]
                    buffer[offset - hostStart] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                }
                return hostEnd - hostStart
            }
            return .plain(RequestURL(text: text, parsed: nil, scheme: https ? "https" : "http", host: host, port: port,
                                     plainTargetStart: targetStart))
        } ?? .notPlain
    }

    /// `text` resolved against `base` (a redirect's `Location`, a relative URL in a tag), then checked.
    public static func check(_ text: String, relativeTo base: URL) throws(URLRefusal) -> RequestURL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL else {
            // Foundation refuses it; judge the text itself for the reason.
            _ = try check(trimmed)
            throw .notAbsolute
        }
        return try check(resolved.absoluteString)
    }

    /// The host (brackets kept on an IPv6 literal) and the port text after its colon, if any.
    private static func split(_ authority: Substring) throws(URLRefusal) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badHost(String(authority)) }
            let host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw .badHost(String(authority)) }
            return (host, after.dropFirst())
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }
}

/// Why a URL is not requested.
public enum URLRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLong(Int)
    case forbiddenCharacter(UInt32)
    case notAbsolute
    case schemeNotAllowed(String)
    case noHost
    case credentials
    case badHost(String)
    case badPort(String)
    /// Foundation reads the host or port differently from the text (the client would connect elsewhere).
    case ambiguous
    /// `--deny-private-networks` / `--deny-loopback`: the host is, or resolves to, such an address.
    case deniedAddress(host: String, address: String, range: AddressRange)
    /// `--deny-private-networks`: the host's name could not be resolved to check it.
    case unresolvable(host: String)

    public var description: String {
        switch self {
        case let .tooLong(bytes): "invalid URL: \(bytes) bytes long (at most \(RequestURL.maxLength))"
        case let .forbiddenCharacter(value): "invalid URL: it contains character U+\(String(format: "%04X", value))"
        case .notAbsolute: "invalid URL: not an absolute URL"
        case let .schemeNotAllowed(scheme): "invalid URL: scheme \(scheme): is not requested (http and https only)"
        case .noHost: "invalid URL: no host"
        case .credentials: "invalid URL: it carries credentials (user@host)"
        case let .badHost(host): "invalid URL: host \(host) is not a host name or IP address"
        case let .badPort(port): "invalid URL: port \(port) is not in 1…65535"
        case .ambiguous: "invalid URL: its host or port is ambiguous"
        case let .deniedAddress(host, address, range):
            host == address ? "refused: \(address) is \(range.text)" : "refused: \(host) resolves to \(address), \(range.text)"
        case let .unresolvable(host): "refused: \(host) could not be resolved to check its address"
        }
    }

    /// Stable, for programs: `invalidURL` or `addressDenied`.
    public var code: String {
        switch self {
        case .deniedAddress, .unresolvable: "addressDenied"
        default: "invalidURL"
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
