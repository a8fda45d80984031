import Foundation
import Primitives

/// Matches a tracking URL as the tag writes it (macros and all) against a URL a device requested: the same scheme-less
/// host (any loopback host for a loopback template, as a capture through a local sink shows), the same path, the same
/// query parameters in any order, values compared percent-decoded, each macro (`[ADPLAYHEAD]`, `%%CACHEBUSTING%%`)
/// matching any value, which is captured by name.
struct TemplateMatcher: Sendable {
    private let host: String?
    private let path: NSRegularExpression?
    /// Query parameters: name → value pattern (nil: a value with no macro, compared as text).
    private let query: [(name: String, literal: String?, pattern: NSRegularExpression?, macros: [String])]
    private let pathMacros: [String]

    init?(_ template: String) {
        guard let components = URLComponents(string: Self.openRTBMacrosBracketed(template.trimmingCharacters(in: .whitespacesAndNewlines))) else { return nil }
        host = components.host?.lowercased()
        let (path, pathMacros) = Self.pattern(components.percentEncodedPath)
        self.path = path
        self.pathMacros = pathMacros
        query = (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decoded(String(parts[0]))
            let value = parts.count > 1 ? String(parts[1]) : ""
            let (pattern, macros) = Self.pattern(value)
            return (name, macros.isEmpty ? Self.decoded(value) : nil, macros.isEmpty ? nil : pattern, macros)
        }
    }

    /// The longest captured URL matched: real tracking URLs are well under it, and the macro patterns' lazy groups
    /// cost more than linear time on a hostile capture's megabyte-long URL.
    static let maxURLLength = 16 * 1024

    /// A captured URL read once (`URLComponents`, the query split and percent-decoded), then matched against every
    /// tracking row: reading it again for each row made the audit of a 1,000,000-entry HAR take 224 s.
    struct Capture {
        let host: String?
        let path: String
        /// The decoded path, lower case (`looksLikeTracking`, for requests no row matched: worked out only then).
        var lowercasedPath: String { (path.removingPercentEncoding ?? path).lowercased() }
        /// Each query parameter: its decoded name, its value as written and decoded.
        let pairs: [(name: String, raw: String, decoded: String)]

        /// Nil when `url` is over `maxURLLength` or not a URL.
        init?(_ url: String) {
            guard url.utf8.count <= TemplateMatcher.maxURLLength, let components = URLComponents(string: url) else { return nil }
            host = components.host?.lowercased()
            path = components.percentEncodedPath
            pairs = (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: true).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let raw = parts.count > 1 ? String(parts[1]) : ""
                return (TemplateMatcher.decoded(String(parts[0])), raw, TemplateMatcher.decoded(raw))
            }
        }
    }

    /// The macro values of `url` when it matches, else nil.
    func match(_ url: String) -> [String: String]? { Capture(url).flatMap(match) }

    /// The macro values of `capture` when it matches, else nil.
    func match(_ capture: Capture) -> [String: String]? {
        let capturedHost = capture.host
        if let host, host != capturedHost, !(Self.isLoopback(host) && capturedHost.map(Self.isLoopback) == true) { return nil }
        guard capture.pairs.count == query.count else { return nil }
        var values: [String: String] = [:]
        let capturedPath = capture.path
        if let path {
            guard let found = path.firstMatch(in: capturedPath, range: NSRange(capturedPath.startIndex..., in: capturedPath)) else { return nil }
            for (index, name) in pathMacros.enumerated() {
                if let range = Range(found.range(at: index + 1), in: capturedPath) { values[name] = Self.decoded(String(capturedPath[range])) }
            }
        }
        var unused = Array(capture.pairs.indices)
        for parameter in query {
            guard let position = unused.firstIndex(where: { pair in
                let (name, raw, decoded) = capture.pairs[pair]
                guard name == parameter.name else { return false }
                if let literal = parameter.literal { return decoded == literal }
                guard let pattern = parameter.pattern else { return false }
                return pattern.firstMatch(in: raw, range: NSRange(raw.startIndex..., in: raw)) != nil
            }) else { return nil }
            let value = capture.pairs[unused.remove(at: position)].raw
            if let pattern = parameter.pattern, let found = pattern.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) {
                for (index, name) in parameter.macros.enumerated() {
                    if let range = Range(found.range(at: index + 1), in: value) { values[name] = Self.decoded(String(value[range])) }
                }
            }
        }
        return values
    }

    /// OpenRTB's `${NAME}` (a bid's notice fills `${AUCTION_IMP_TS}` as it fires) written as `[NAME]`, a macro like the
    /// others: `URLComponents` reads no braces.
    static func openRTBMacrosBracketed(_ text: String) -> String {
        guard text.contains("${"), let openRTB = try? NSRegularExpression(pattern: #"\$\{([A-Z_]+)(?::[A-Za-z0-9]+)?\}"#) else { return text }
        return openRTB.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "[$1]")
    }

    static func isLoopback(_ host: String) -> Bool { host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]" }

    static func decoded(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// An anchored pattern for `text` with each macro (`[NAME]`, `%%NAME%%`) a capture group, and the macro names.
    static func pattern(_ text: String) -> (NSRegularExpression?, [String]) {
        guard let macro = try? NSRegularExpression(pattern: #"\[([A-Z_]+)\]|%%([A-Z_]+)%%|%5B([A-Z_]+)%5D"#, options: [.caseInsensitive]) else { return (nil, []) }
        var pattern = "^"
        var names: [String] = []
        var last = text.startIndex
        for found in macro.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(found.range, in: text) else { continue }
            pattern += NSRegularExpression.escapedPattern(for: String(text[last..<range.lowerBound]))
            let name = (1...3).compactMap { Range(found.range(at: $0), in: text).map { String(text[$0]) } }.first ?? "?"
            names.append(name.uppercased())
            pattern += "(.*?)"
            last = range.upperBound
        }
        pattern += NSRegularExpression.escapedPattern(for: String(text[last...])) + "$"
        return (try? NSRegularExpression(pattern: pattern), names)
    }
}
