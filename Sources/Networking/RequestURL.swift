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
    /// Where the request target is in `text` (UTF-8 offsets, `URLScanner`): its path and query, no fragment; empty
    /// (at the end) when it has neither.
    private let targetRange: Range<Int>

    /// The URL as Foundation reads it (async-http-client's input, the base of a relative redirect).
    public var url: URL {
        // A plain URL's text is one Foundation reads as written (`URLScan.plain`); the fallback is never taken.
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
        let utf8 = text.utf8
        let rest = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: targetRange.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: targetRange.upperBound)])
        return (rest.utf8.first != UInt8(ascii: "/"), rest)
    }

    /// `requestTargetParts` as bytes, for writing a request line straight from them: whether a `/` goes first, then
    /// the text's path and query (empty when the URL has none).
    public func withRequestTargetBytes<Result>(_ body: (_ slash: Bool, _ rest: UnsafeRawBufferPointer) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            let rest = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[targetRange])
            return body(rest.first != UInt8(ascii: "/"), rest)
        }
    }

    /// A request target made from its parts (`requestTargetParts`): at least `/`.
    static func target(_ parts: (slash: Bool, rest: Substring)) -> String {
        parts.slash ? "/" + parts.rest : String(parts.rest)
    }

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
        let absolute = url.absoluteString
        let target = URLScanner.withScan(of: absolute) { bytes, scan -> Range<Int> in
            switch scan {
            case let .plain(_, _, _, target): target
            case let .other(target?): target
            case .other(nil), nil: bytes.count..<bytes.count
            }
        }
        return RequestURL(text: absolute, parsed: url, scheme: scheme, host: plainHost.lowercased(), port: port, targetRange: target)
    }

    private enum PlainCheck {
        case plain(RequestURL)
        case badPort(String)
        case notPlain
    }

    /// `check` of a plain URL (`URLScan.plain`), done on its bytes: the host made lower case from them, the port
    /// read from its digits, the target's offsets kept. A fleet checks every beacon's URL; its scheme, host and port
    /// taken as substrings first cost more than the scan itself.
    private static func checkPlain(_ text: String) -> PlainCheck {
        URLScanner.withScan(of: text) { bytes, scan -> PlainCheck in
            guard case let .plain(https, hostRange, portRange, target) = scan else { return .notPlain }
            var port = https ? 443 : 80
            if let digits = portRange.map({ bytes[$0] }), !digits.isEmpty {
                // Digits only (`URLScan.plain`): at most five, in 1…65535.
                var value = 0
                for digit in digits.prefix(5) { value = value * 10 + Int(digit - 0x30) }
                guard digits.count <= 5, (1...65_535).contains(value) else {
                    return .badPort(String(decoding: UnsafeBufferPointer(rebasing: digits), as: UTF8.self))
                }
                port = value
            }
            // Host bytes are ASCII letters, digits and `-._~` (`URLScan.plain`): lower case byte by byte.
            let host = String(unsafeUninitializedCapacity: hostRange.count) { buffer in
                for offset in hostRange {
                    let byte = bytes[offset]
                    buffer[offset - hostRange.lowerBound] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                }
                return hostRange.count
            }
            return .plain(RequestURL(text: text, parsed: nil, scheme: https ? "https" : "http", host: host, port: port,
                                     targetRange: target))
        }
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

