import Foundation

/// What vplay reads of an HLS playlist itself, before FFmpeg's `hls` demuxer sees it: whether it is a master
/// playlist and its variants, whether it ends (`#EXT-X-ENDLIST`), and every URI it names, so that each can be checked
/// before anything is requested. A small reader of RFC 8216's line format, not a second demuxer.
public enum HLSPlaylist {
    /// The largest playlist read: 1 MiB is about 10 000 segments with long URLs, hours of media for an ad of seconds.
    public static let maxBytes = 1 << 20
    /// The most segments a media playlist may list (an ad is seconds to minutes; 10 000 segments of 1 s are hours).
    static let maxSegments = 10_000
    /// The most variants a master playlist may list (real ladders have 3 to 10).
    static let maxVariants = 64

    /// Whether `text` starts as an HLS playlist must (`#EXTM3U`, after an optional byte-order mark).
    public static func isPlaylist(_ text: String) -> Bool {
        text.drop(while: { $0 == "\u{FEFF}" }).hasPrefix("#EXTM3U")
    }

    public static func lines(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }
    }

    /// Whether `text` is a master playlist (it lists variants).
    public static func isMaster(_ text: String) -> Bool { text.contains("#EXT-X-STREAM-INF:") }

    /// Whether a media playlist says it is complete (VOD or event ended); without it a player keeps reloading it.
    static func isEnded(_ text: String) -> Bool {
        lines(text).contains { $0.hasPrefix("#EXT-X-ENDLIST") }
    }

    /// The number of segments (`#EXTINF` entries).
    static func segmentCount(_ text: String) -> Int { lines(text).filter { $0.hasPrefix("#EXTINF") }.count }

    /// What is wrong with a media playlist's segment durations, or nil: every `#EXTINF` must be a decimal number of
    /// seconds above zero (RFC 8216 §4.3.2.1: digits and one point, so no sign, exponent, `nan` or `inf`), and, rounded
    /// to an integer, at most `#EXT-X-TARGETDURATION` when the playlist has one (§4.3.3.1). FFmpeg takes the playlist's
    /// sum as the ad's duration: a lie here would put the quartiles, and the end, anywhere.
    static func durationProblem(_ text: String) -> String? {
        var target: Int?
        for line in lines(text) where line.hasPrefix("#EXT-X-TARGETDURATION:") {
            let value = line.dropFirst("#EXT-X-TARGETDURATION:".count).trimmingCharacters(in: .whitespaces)
            guard let number = Int(value), number >= 0, value.allSatisfy(\.isASCII) else {
                return "#EXT-X-TARGETDURATION says \(value.prefix(40)), not a whole number of seconds"
            }
            target = number
        }
        var segment = 0
        for line in lines(text) where line.hasPrefix("#EXTINF:") {
            segment += 1
            let rest = line.dropFirst("#EXTINF:".count)
            let value = String(rest.prefix { $0 != "," }).trimmingCharacters(in: .whitespaces)
            let digits = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let isDecimal = !value.isEmpty && value.first != "." && digits.count <= 2
                && digits.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            guard isDecimal, let seconds = Double(value), seconds.isFinite else {
                return "segment \(segment) says #EXTINF:\(value.prefix(40)), not a duration in seconds"
            }
            guard seconds > 0 else { return "segment \(segment) says #EXTINF:\(value), no duration" }
            if let target, seconds.rounded() > Double(target) {
                return "segment \(segment) says #EXTINF:\(value.prefix(40)), longer than #EXT-X-TARGETDURATION:\(target)"
            }
        }
        return nil
    }

    /// The encryption method other than NONE, if any `#EXT-X-KEY` names one (vplay plays clear segments only).
    static func encryption(_ text: String) -> String? {
        for line in lines(text) where line.hasPrefix("#EXT-X-KEY:") || line.hasPrefix("#EXT-X-SESSION-KEY:") {
            let method = attributes(line)["METHOD"] ?? "?"
            if method.uppercased() != "NONE" { return method }
        }
        return nil
    }

    /// The variants of a master playlist, each URI resolved against `base` (the playlist's own URL or path).
    public static func variants(_ text: String, base: String) -> [StreamVariant] {
        var result: [StreamVariant] = []
        var pending: [String: String]?
        for line in lines(text) {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = attributes(line)
            } else if line.hasPrefix("#") {
                continue
            } else if let attributes = pending {
                pending = nil
                let resolution = attributes["RESOLUTION"]?.lowercased().split(separator: "x").compactMap { Int($0) }
                result.append(StreamVariant(
                    url: resolve(String(line), against: base), bandwidth: attributes["BANDWIDTH"].flatMap { Int($0) },
                    averageBandwidth: attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                    width: resolution?.count == 2 ? resolution?[0] : nil, height: resolution?.count == 2 ? resolution?[1] : nil))
            }
        }
        return result
    }

    /// Every URI a playlist names, resolved against `base`: segment lines and `URI="…"` attributes (`#EXT-X-MAP`,
    /// `#EXT-X-MEDIA`, `#EXT-X-KEY`, `#EXT-X-I-FRAME-STREAM-INF`…). Each is a request FFmpeg may make.
    static func uris(_ text: String, base: String) -> [String] {
        var result: [String] = []
        for line in lines(text) {
            if line.hasPrefix("#") {
                if let uri = attributes(line)["URI"] { result.append(resolve(uri, against: base)) }
            } else {
                result.append(resolve(String(line), against: base))
            }
        }
        return result
    }

    /// `NAME=value,NAME="quoted, value"` after the tag's colon.
    public static func attributes(_ line: Substring) -> [String: String] {
        guard let colon = line.firstIndex(of: ":") else { return [:] }
        var result: [String: String] = [:]
        var name = ""
        var value = ""
        var inName = true
        var quoted = false
        func flush() {
            let key = name.trimmingCharacters(in: .whitespaces)
            if !key.isEmpty { result[key] = value }
            name = ""; value = ""; inName = true
        }
        for character in line[line.index(after: colon)...] {
            if inName {
                if character == "=" { inName = false } else if character == "," { flush() } else { name.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                flush()
            } else {
                value.append(character)
            }
        }
        flush()
        return result
    }

    /// `uri` resolved as FFmpeg resolves it against a playlist at `base` (an http(s) URL or a local path): an
    /// absolute URI (with a scheme) stays as it is, anything else is relative to the playlist's folder.
    public static func resolve(_ uri: String, against base: String) -> String {
        let uri = uri.trimmingCharacters(in: .whitespaces)
        if let colon = uri.firstIndex(of: ":"), uri.distance(from: uri.startIndex, to: colon) > 1,
           uri[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
            return uri
        }
        if base.hasPrefix("http:") || base.hasPrefix("https:") {
            return URL(string: uri, relativeTo: URL(string: base))?.absoluteString ?? uri
        }
        if uri.hasPrefix("/") { return uri }
        return URL(fileURLWithPath: base).deletingLastPathComponent().appendingPathComponent(uri).path
    }
}
