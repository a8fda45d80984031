import Foundation
import XMLReading

/// What vplay reads of a DASH manifest (MPD, ISO/IEC 23009-1) before anything else is requested: its one period, its
/// video and audio representations (bandwidth, size) and, for each, the initialization and media segment URLs with
/// their durations, resolved against the manifest's URL and its `BaseURL`s. Refused (403, naming why): a live
/// manifest (`type="dynamic"`: it never ends, and a player reloads it on the wall clock), more than one period (an ad
/// is one), `ContentProtection` (encrypted media), over `HLSPlaylist.maxBytes`, `maxSegments` or `maxVariants`.
///
/// A small reader of the MPD's segment addressing (`SegmentTemplate` with `$Number$`/`$Time$` and a
/// `SegmentTimeline` or a fixed `duration`, `SegmentList` of files or byte ranges, or one file per representation),
/// not a second demuxer: the segments are fMP4 (or MPEG-TS) that FFmpeg demuxes.
struct DASHManifest {
    enum Kind { case video, audio, other }

    struct Segment: Equatable {
        var url: String
        /// Seconds (0 for an initialization segment).
        var duration: Double
        /// The bytes of the file it is, when only part (`mediaRange`, an `Initialization`'s `range`).
        var range: ClosedRange<Int64>? = nil
    }

    struct Representation {
        var id: String
        var kind: Kind
        var bandwidth: Int?
        var width: Int?
        var height: Int?
        /// Its AdaptationSet: the ordinal in the period, and whether its `Role` is `main`.
        var set: Int
        var main: Bool
        /// How it names its segments, listed only for the representations played (`segments(location:)`).
        var addressing: Addressing

        /// The initialization segment (if it has one) and the media segments, in order.
        func segments(location: String) throws(MediaError) -> (initialization: Segment?, segments: [Segment]) {
            try addressing.segments(location: location)
        }
    }

    /// The longest presentation vplay plays (a day): an ad is seconds to minutes, and it bounds every time product.
    static let maxDuration = 86_400.0

    var representations: [Representation]
    /// The presentation's duration in seconds, when the manifest gives one.
    var duration: Double?

    var videos: [Representation] { representations.filter { $0.kind == .video } }
    /// The audio representations a player starts with: those of the AdaptationSet whose `Role` is `main`, else of the
    /// first audio AdaptationSet (another is another language or commentary, not another bitrate).
    var audios: [Representation] {
        let all = representations.filter { $0.kind == .audio }
        let set = all.first(where: \.main)?.set ?? all.first?.set
        return all.filter { $0.set == set }
    }

    /// Reads `text`, the manifest at `base` (an http(s) URL or a local path).
    init(_ text: String, base: String, location: String) throws(MediaError) {
        let root: Element
        switch Element.parse(text) {
        case .success(let element): root = element
        case .failure(let failure): throw .notMedia(location: location, message: "a DASH manifest that cannot be read: \(failure.message)")
        }
        guard root.name == "MPD" else {
            throw .notMedia(location: location, message: "not a DASH manifest (the root element is <\(root.name)>, not <MPD>)")
        }
        if root["type"]?.lowercased() == "dynamic" {
            throw .formatNotAllowed(location: location, format: "dash live manifest (type=\"dynamic\"; an ad must end)")
        }
        let periods = root.children("Period")
        guard periods.count == 1, let period = periods.first else {
            throw periods.isEmpty ? .notMedia(location: location, message: "a DASH manifest without a Period")
                : .formatNotAllowed(location: location, format: "dash with \(periods.count) periods (single-period manifests only)")
        }
        if let protection = period.first(named: "ContentProtection") {
            let scheme = protection["schemeIdUri"].map { " \($0)" } ?? ""
            throw .formatNotAllowed(location: location, format: "dash encrypted (ContentProtection\(scheme); clear media only)")
        }
        duration = (period["duration"] ?? root["mediaPresentationDuration"]).flatMap(Self.seconds)
        if let duration, duration > Self.maxDuration {
            // Not `Int(duration)`: a duration of 10³⁰ s is finite and beyond `Int` (found by fuzz-mpd: a trap).
            throw .formatNotAllowed(location: location, format: "dash of \(String(format: "%.0f", duration)) s (longer than a day)")
        }
        let periodBase = Self.base(of: period, under: Self.base(of: root, under: base))
        var found: [Representation] = []
        for (ordinal, set) in period.children("AdaptationSet").enumerated() {
            let setBase = Self.base(of: set, under: periodBase)
            let main = set.children("Role").contains { $0["value"] == "main" }
            for element in set.children("Representation") {
                guard found.count < HLSPlaylist.maxVariants else {
                    throw .formatNotAllowed(location: location, format: "dash (more than \(HLSPlaylist.maxVariants) representations)")
                }
                let id = element["id"] ?? "\(found.count + 1)"
                let bandwidth = element["bandwidth"].flatMap { Int($0) }
                let addressing = Addressing(set: set, representation: element, id: id, bandwidth: bandwidth,
                                            base: Self.base(of: element, under: setBase), periodDuration: duration)
                found.append(Representation(
                    id: id, kind: Self.kind(set, element), bandwidth: bandwidth,
                    width: (element["width"] ?? set["width"]).flatMap { Int($0) },
                    height: (element["height"] ?? set["height"]).flatMap { Int($0) }, set: ordinal, main: main, addressing: addressing))
            }
        }
        guard found.contains(where: { $0.kind == .video }) else {
            throw .notMedia(location: location, message: "a DASH manifest without a video representation")
        }
        representations = found
    }

    /// The stream kind: the AdaptationSet's `contentType`, else the `mimeType` (set or representation).
    static func kind(_ set: Element, _ representation: Element) -> Kind {
        let declared = (set["contentType"] ?? set["mimeType"] ?? representation["mimeType"] ?? "").lowercased()
        if declared.hasPrefix("video") { return .video }
        if declared.hasPrefix("audio") { return .audio }
        return .other
    }

    /// The URL `element`'s first `BaseURL` sets for what it holds, resolved against `base`.
    static func base(of element: Element, under base: String) -> String {
        guard let text = element.children("BaseURL").first?.text.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return base
        }
        return HLSPlaylist.resolve(text, against: base)
    }

    /// An ISO 8601 duration (`PT10S`, `PT1M30.5S`, `P0DT0H0M10.000S`) in seconds; nil for anything else (and for
    /// years or months, which have no fixed length).
    static func seconds(_ text: String) -> Double? { ISODuration.seconds(text) }
}

