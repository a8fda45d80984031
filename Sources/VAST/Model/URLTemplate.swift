/// Helpers for VAST URL templates (URLs that may contain `[MACRO]`s).
public enum URLTemplate {
    /// Whether a URL should be requested at all: not empty/whitespace and not `about:blank` (case-insensitive),
    /// which the spec uses to mean "do not dispatch".
    public static func isFireable(_ url: String) -> Bool {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        return !trimmed.isEmpty && trimmed.lowercased() != "about:blank"
    }

    /// What a tracking URL of a document becomes before anything is requested (`dispatchForm(_:documentURL:)`).
    public enum DispatchForm: Sendable, Equatable {
        /// Request this absolute http(s) URL (a protocol-relative `//host/p` has taken its document's scheme).
        case request(String)
        /// Empty, whitespace or `about:blank`: the spec's "do not dispatch", dropped silently.
        case blank
        /// A scheme other than http(s) (`file:`, `javascript:`, `data:`, `ftp:`…): never requested.
        case notHTTP
        /// Not an absolute URL even after the document's scheme is added (`you_shall_not_path`, `/p`): never requested.
        case notAbsolute
    }

    /// The scheme a protocol-relative URL of a document takes: the document's when it came over http or https, else
    /// (a local file, a response given as data) `https`, as a page opened from disk would have to choose.
    public static func documentScheme(_ documentURL: String?) -> String {
        documentURL.flatMap { scheme(of: $0.trimmingCharacters(in: .whitespacesAndNewlines)) } == "http" ? "http" : "https"
    }

    /// What `url`, written in the document at `documentURL`, is requested as: a protocol-relative URL (`//host/p`)
    /// is resolved against the document's scheme (`documentScheme`); an absolute http(s) URL is kept as written;
    /// anything else is never requested. vast-client-js sends a protocol-relative URL as it is (the browser resolves
    /// it against the page) and requests `you_shall_not_path` relative to the page; a headless player has no page.
    public static func dispatchForm(_ url: String, documentURL: String?) -> DispatchForm {
        guard isFireable(url) else { return .blank }
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if let scheme = scheme(of: trimmed) {
            guard scheme == "http" || scheme == "https" else { return .notHTTP }
            return trimmed.dropFirst(scheme.count + 1).hasPrefix("//") ? .request(url) : .notAbsolute
        }
        if trimmed.hasPrefix("//"), trimmed.count > 2, !trimmed.hasPrefix("///") {
            return .request(documentScheme(documentURL) + ":" + trimmed)
        }
        return .notAbsolute
    }

    /// Whether a tracking URL may be dispatched as written or once its document's scheme is added: fireable, and
    /// `http(s)://…` or `//host/…` (`dispatchForm` is the full answer).
    public static func isDispatchable(_ url: String) -> Bool {
        if case .request = dispatchForm(url, documentURL: nil) { return true }
        return false
    }

    /// The lower-cased RFC 3986 scheme of `url` (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`), or `nil`.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              candidate.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return candidate.lowercased()
    }

    /// `url` with every character RFC 3986 does not allow after the authority percent-encoded (spaces, `[` `]` of a
    /// macro left unexpanded, `|`, `{`, non-ASCII…); valid `%XX` escapes and the scheme and authority (where an
    /// IPv6 literal keeps its brackets) are left as they are.
    ///
    /// Why: Foundation's `URL(string:)` on Linux, given a query with `[` or `]`, re-encodes the existing escapes
    /// too (`%3A` becomes `%253A`), which corrupts every macro value expanded before it.
    public static func escapingInvalidCharacters(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        if let separator = url.range(of: "://") {
            let afterScheme = url.utf8.distance(from: url.utf8.startIndex, to: separator.upperBound)
            start = bytes[afterScheme...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.count
        }
        func isHex(_ b: UInt8) -> Bool { (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b) }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array(bytes[..<start])
        for i in start..<bytes.count {
            let b = bytes[i]
            if allowed.contains(b) || (b == UInt8(ascii: "%") && i + 2 < bytes.count && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every `[NAME]` in the template, in order of appearance (duplicates kept). `NAME` is letters, digits and `_`
    /// starting with a letter or `_`, so IPv6 literals like `[::1]` are not macros.
    public static func macros(in url: String) -> [String] {
        var result: [String] = []
        var index = url.startIndex
        while let open = url[index...].firstIndex(of: "[") {
            let afterOpen = url.index(after: open)
            guard let close = url[afterOpen...].firstIndex(of: "]") else { break }
            let name = url[afterOpen..<close]
            if let first = name.first, first.isLetter || first == "_",
               name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }) {
                result.append(String(name))
                index = url.index(after: close)
            } else {
                index = afterOpen
            }
        }
        return result
    }

    /// The `[NAME]`s of a template that are not VAST 4.x macros (see `VASTMacroNames`), in order, without duplicates.
    /// Matching is case-sensitive, like the spec and vast-client-js: `[cachebusting]` is unknown.
    public static func unknownMacros(in url: String) -> [String] {
        var seen = Set<String>()
        return macros(in: url).filter {
            !VASTMacroNames.isKnown($0) && !VASTMacroNames.legacyCacheBusters.contains($0) && seen.insert($0).inserted
        }
    }

    /// The legacy cache busters of a template (`[RANDOM]`, `[random]`, `%%RANDOM%%`), each once: expanded like
    /// `[CACHEBUSTING]`, but not VAST 4.x macros.
    public static func legacyMacros(in url: String) -> [String] {
        var found: [String] = []
        for name in VASTMacroNames.legacyCacheBusters.sorted()
        where url.contains("[\(name)]") || url.contains("%%\(name)%%") {
            found.append(name)
        }
        return found
    }
}
