import Findings
import Foundation
import PlayerEngine

/// Reads a content media playlist's interstitials (RFC 8216bis appendix D): each `EXT-X-DATERANGE` of `CLASS`
/// `com.apple.hls.interstitial` (date ranges of one `ID` merged, as §4.4.5.1 says), placed on the content's timeline
/// by `EXT-X-PROGRAM-DATE-TIME`. The content is read, not decoded: its length is the sum of its `EXTINF`s. Bounded:
/// 1 MiB, 10,000 segments, 1,000 interstitials, a content of at most a day.
public enum HLSInterstitialReader {
    public static let interstitialClass = "com.apple.hls.interstitial"
    static let maxInterstitials = 1000
    static let maxContent: Duration = .seconds(86_400)

    /// The playlist `data` read from `base` (its URL, for relative URIs).
    public static func read(_ data: Data, base: String) -> Result<InterstitialStream, InterstitialError> {
        guard data.count <= HLSPlaylist.maxBytes else { return .failure(InterstitialError("the playlist is larger than \(HLSPlaylist.maxBytes) bytes")) }
        if DASHSignaling.isManifest(data) {
            return .failure(InterstitialError("a DASH manifest: its SVTA2053 signalling describes ads stitched into the stream; play it with --tracking-doc"))
        }
        guard let text = String(data: data, encoding: .utf8), HLSPlaylist.isPlaylist(text) else {
            return .failure(InterstitialError("not an HLS playlist (it does not begin with #EXTM3U)"))
        }
        guard !HLSPlaylist.isMaster(text) else {
            return .failure(InterstitialError("a multivariant playlist (vplay follows one to its first variant, once): give a media playlist, where interstitials are signalled"))
        }
        do throws(InterstitialError) {
            var timeline = Timeline()
            var ranges: [(id: String, attributes: [String: String])] = []
            for line in HLSPlaylist.lines(text) {
                if line.hasPrefix("#EXTINF:") {
                    try timeline.segment(line)
                } else if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
                    let value = String(line.dropFirst("#EXT-X-PROGRAM-DATE-TIME:".count))
                    guard let date = date(value) else { throw InterstitialError("EXT-X-PROGRAM-DATE-TIME:\(value.prefix(40)) is not an ISO 8601 date") }
                    timeline.anchors.append((date, timeline.end))
                } else if line.hasPrefix("#EXT-X-DATERANGE:") {
                    let attributes = HLSPlaylist.attributes(line)
                    guard let id = attributes["ID"] else { throw InterstitialError("an EXT-X-DATERANGE has no ID") }
                    if let index = ranges.firstIndex(where: { $0.id == id }) {
                        ranges[index].attributes.merge(attributes) { old, _ in old }
                    } else {
                        ranges.append((id, attributes))
                        guard ranges.count <= maxInterstitials * 10 else { throw InterstitialError("the playlist has more than \(maxInterstitials * 10) date ranges") }
                    }
                }
            }
            var notes: [String] = []
            var interstitials: [HLSInterstitial] = []
            for range in ranges where range.attributes["CLASS"] == interstitialClass {
                interstitials.append(try interstitial(range.id, range.attributes, timeline: timeline, base: base, notes: &notes))
                guard interstitials.count <= maxInterstitials else { throw InterstitialError("the playlist has more than \(maxInterstitials) interstitials") }
            }
            interstitials.sort { ($0.cue.order, $0.contentTime) < ($1.cue.order, $1.contentTime) }
            return .success(InterstitialStream(contentDuration: timeline.end, boundaries: timeline.boundaries + [timeline.end],
                                               interstitials: interstitials, notes: notes))
        } catch {
            return .failure(error)
        }
    }

    /// The content's timeline as the playlist builds it: segment starts and dated anchors.
    struct Timeline {
        var end: Duration = .zero
        var boundaries: [Duration] = []
        var anchors: [(date: Date, time: Duration)] = []

        mutating func segment(_ line: Substring) throws(InterstitialError) {
            let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }.trimmingCharacters(in: .whitespaces)
            guard let seconds = Double(value), seconds.isFinite, seconds > 0 else { throw InterstitialError("#EXTINF:\(value.prefix(40)) is not a duration in seconds") }
            guard boundaries.count < 10_000 else { throw InterstitialError("the playlist lists more than 10000 segments") }
            boundaries.append(end)
            end += .milliseconds(roundingSeconds: seconds)
            guard end <= HLSInterstitialReader.maxContent else { throw InterstitialError("the content is longer than a day") }
        }

        /// Where `date` falls on the content: from the last anchor at or before it (the first anchor otherwise).
        func time(of date: Date) -> Duration? {
            guard let anchor = anchors.last(where: { $0.date <= date }) ?? anchors.first else { return nil }
            let seconds = date.timeIntervalSince(anchor.date)
            guard seconds.isFinite, abs(seconds) <= 86_400 else { return nil }
            return anchor.time + .milliseconds(roundingSeconds: seconds)
        }
    }

    static func interstitial(_ id: String, _ attributes: [String: String], timeline: Timeline, base: String,
                             notes: inout [String]) throws(InterstitialError) -> HLSInterstitial {
        let name = "interstitial \"\(id.prefix(64))\""
        let cues = Set((attributes["CUE"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() })
        let cue: HLSInterstitial.Cue = cues.contains("PRE") ? .pre : cues.contains("POST") ? .post : .date
        guard let startText = attributes["START-DATE"], let start = date(startText) else { throw InterstitialError("\(name) has no START-DATE that is an ISO 8601 date") }
        var contentTime: Duration = .zero
        switch cue {
        case .pre: contentTime = .zero
        case .post: contentTime = timeline.end
        case .date:
            guard let time = timeline.time(of: start) else { throw InterstitialError("\(name): the playlist has no EXT-X-PROGRAM-DATE-TIME to place its START-DATE on") }
            guard time >= .zero, time <= timeline.end else { throw InterstitialError("\(name) starts at content \(time.seconds) s, outside the content (0 to \(timeline.end.seconds) s)") }
            contentTime = time
            // X-SNAP=OUT: the player leaves the content at the segment boundary closest to the date.
            if (attributes["X-SNAP"] ?? "").uppercased().contains("OUT") {
                contentTime = InterstitialStream.nearest(to: time, in: timeline.boundaries + [timeline.end])
            }
        }
        func seconds(_ key: String) throws(InterstitialError) -> Duration? {
            guard let text = attributes[key] else { return nil }
            guard let value = Double(text), value.isFinite, value >= 0, value <= 86_400 else { throw InterstitialError("\(name): \(key)=\(text.prefix(40)) is not a time in seconds within a day") }
            return .milliseconds(roundingSeconds: value)
        }
        var duration = try seconds("DURATION")
        if duration == nil, let endText = attributes["END-DATE"], let end = date(endText), end >= start {
            duration = .milliseconds(roundingSeconds: end.timeIntervalSince(start))
        }
        let assetURI = attributes["X-ASSET-URI"].map { HLSPlaylist.resolve($0, against: base) }
        let assetList = attributes["X-ASSET-LIST"].map { HLSPlaylist.resolve($0, against: base) }
        guard (assetURI == nil) != (assetList == nil) else { throw InterstitialError("\(name) must have exactly one of X-ASSET-URI and X-ASSET-LIST") }
        var signaling: AdCreativeSignaling?
        if let text = attributes["X-AD-CREATIVE-SIGNALING"] {
            switch AdCreativeSignaling.read(base64: text) {
            case let .success(read): signaling = read
            case let .failure(error): throw InterstitialError("\(name): \(error.message)")
            }
        }
        let split = { (key: String) in Set((attributes[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }) }
        let interstitial = HLSInterstitial(id: id, contentTime: contentTime, cue: cue, once: cues.contains("ONCE"), assetURI: assetURI, assetList: assetList,
                                           resumeOffset: try seconds("X-RESUME-OFFSET"), playoutLimit: try seconds("X-PLAYOUT-LIMIT"),
                                           restrict: split("X-RESTRICT"), snap: split("X-SNAP"),
                                           occupiesRange: attributes["X-TIMELINE-OCCUPIES"]?.uppercased() == "RANGE",
                                           duration: duration, plannedDuration: try seconds("PLANNED-DURATION"), signaling: signaling)
        notes += InterstitialNotes.attributes(interstitial, name: name)
        return interstitial
    }

    /// An ISO 8601 date with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

extension HLSInterstitial.Cue {
    /// Pre-rolls first, then by time, post-rolls last.
    var order: Int {
        switch self {
        case .pre: 0
        case .date: 1
        case .post: 2
        }
    }
}
