import Foundation

extension DASHManifest {
    /// How one representation names its segments (ISO/IEC 23009-1 §5.3.9): a `SegmentTemplate` (the
    /// representation's own attributes over its AdaptationSet's) with a `SegmentTimeline` or a fixed `duration`, a
    /// `SegmentList` (of files, or byte ranges of one), or else one file, the representation's `BaseURL` (the
    /// on-demand profile's indexed fMP4, played whole).
    struct Addressing {
        let set: DASHManifest.Element
        let representation: DASHManifest.Element
        let id: String
        let bandwidth: Int?
        /// The representation's resolved `BaseURL` (the manifest's URL when none is given).
        let base: String
        let periodDuration: Double?

        /// The initialization segment (if any) and the media segments, in order; refused when a segment's duration is
        /// not positive or over `DASHManifest.maxDuration`.
        func segments(location: String) throws(MediaError) -> (initialization: Segment?, segments: [Segment]) {
            let (initialization, segments) = try listed(location: location)
            guard !segments.isEmpty, segments.allSatisfy({ $0.duration > 0 && $0.duration <= DASHManifest.maxDuration }) else {
                throw .notMedia(location: location, message: "DASH representation \(id): no segments, or a segment of no or implausible duration")
            }
            return (initialization, segments)
        }

        private func listed(location: String) throws(MediaError) -> (Segment?, [Segment]) {
            let own = representation.children("SegmentTemplate").first
            let inherited = set.children("SegmentTemplate").first
            if own != nil || inherited != nil {
                var attributes = inherited?.attributes ?? [:]
                attributes.merge(own?.attributes ?? [:]) { $1 }
                let timeline = (own?.children("SegmentTimeline").first ?? inherited?.children("SegmentTimeline").first)?.children("S")
                return try templated(attributes, timeline: timeline, location: location)
            }
            if let list = representation.children("SegmentList").first ?? set.children("SegmentList").first {
                return try listed(list, location: location)
            }
            // One file per representation (the on-demand profile): its BaseURL, played whole.
            guard representation.children("BaseURL").first != nil || set.children("BaseURL").first != nil,
                  let periodDuration, periodDuration > 0 else {
                throw .notMedia(location: location, message: "DASH representation \(id) names no segments")
            }
            return (nil, [Segment(url: base, duration: periodDuration)])
        }

        private func templated(_ attributes: [String: String], timeline: [DASHManifest.Element]?,
                               location: String) throws(MediaError) -> (Segment?, [Segment]) {
            guard let media = attributes["media"] else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTemplate without media")
            }
            let timescale = max(1, try number(attributes["timescale"], location) ?? 1)
            let startNumber = try number(attributes["startNumber"], location) ?? 1
            let offset = try number(attributes["presentationTimeOffset"], location) ?? 0
            var slots: [(time: Int64, duration: Int64)] = []
            if let timeline, !timeline.isEmpty {
                var time: Int64 = 0
                for (index, entry) in timeline.enumerated() {
                    if let start = try number(entry["t"], location) { time = start }
                    guard let duration = try number(entry["d"], location), duration > 0 else {
                        throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTimeline S without d")
                    }
                    var repeats = try entry["r"] == "-1" ? -1 : number(entry["r"], location) ?? 0
                    if repeats < 0 {
                        // Until the next S's start, or the period's end.
                        let end = index + 1 < timeline.count ? try number(timeline[index + 1]["t"], location)
                            : periodDuration.map { offset + Self.ticks($0, timescale) }
                        guard let end, end > time else {
                            throw .notMedia(location: location, message: "DASH representation \(id): an open-ended SegmentTimeline")
                        }
                        repeats = (end - time + duration - 1) / duration - 1
                    }
                    guard repeats < Int64(HLSPlaylist.maxSegments) - Int64(slots.count) else { throw tooMany(location) }
                    for _ in 0...repeats {
                        slots.append((time, duration))
                        time += duration
                    }
                }
            } else if let duration = try number(attributes["duration"], location), duration > 0 {
                guard let periodDuration, periodDuration > 0 else {
                    throw .notMedia(location: location, message: "DASH representation \(id): segments of a fixed duration, and no period duration")
                }
                let total = Self.ticks(periodDuration, timescale)
                let count = (total + duration - 1) / duration
                guard count <= Int64(HLSPlaylist.maxSegments) else { throw tooMany(location) }
                for index in 0..<count {
                    slots.append((offset + index * duration, min(duration, total - index * duration)))
                }
            } else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTemplate without a timeline or duration")
            }
            let initialization = attributes["initialization"].map {
                Segment(url: HLSPlaylist.resolve(Self.fill($0, id: id, bandwidth: bandwidth, number: nil, time: nil), against: base), duration: 0)
            }
            let segments = slots.enumerated().map { index, slot in
                Segment(url: HLSPlaylist.resolve(Self.fill(media, id: id, bandwidth: bandwidth, number: startNumber + Int64(index), time: slot.time),
                                                 against: base),
                        duration: Double(slot.duration) / Double(timescale))
            }
            return (initialization, segments)
        }

        /// A `SegmentList`: each `SegmentURL` its `media` file (else the representation's own, `BaseURL`), or the
        /// byte range `mediaRange` of it; the `Initialization` likewise (`sourceURL`, `range`).
        private func listed(_ list: DASHManifest.Element, location: String) throws(MediaError) -> (Segment?, [Segment]) {
            let timescale = max(1, try number(list["timescale"], location) ?? 1)
            let entries = list.children("SegmentURL")
            guard !entries.isEmpty else { throw .notMedia(location: location, message: "DASH representation \(id): an empty SegmentList") }
            guard entries.count <= HLSPlaylist.maxSegments else { throw tooMany(location) }
            let fixed = try number(list["duration"], location).map { Double($0) / Double(timescale) }
            guard let each = fixed ?? periodDuration.map({ $0 / Double(entries.count) }) else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentList without durations")
            }
            var initialization: Segment?
            if let entry = list.children("Initialization").first, entry["sourceURL"] != nil || entry["range"] != nil {
                initialization = Segment(url: entry["sourceURL"].map { HLSPlaylist.resolve($0, against: base) } ?? base, duration: 0,
                                         range: try range(entry["range"], location))
            }
            var segments: [Segment] = []
            for entry in entries {
                segments.append(Segment(url: entry["media"].map { HLSPlaylist.resolve($0, against: base) } ?? base, duration: each,
                                        range: try range(entry["mediaRange"], location)))
            }
            // The last segment of a fixed-duration list ends with the period.
            if fixed != nil, let periodDuration, let last = segments.indices.last {
                let rest = periodDuration - each * Double(last)
                if rest > 0, rest < each { segments[last].duration = rest }
            }
            return (initialization, segments)
        }

        /// The largest time, count or number read (2⁴⁸): beyond any real timeline (at 90 kHz, 99 years), and small
        /// enough that 10 000 segments' times add up without overflow.
        static let maxNumber: Int64 = 1 << 48

        /// A non-negative integer attribute, nil when absent; refused when it is not one or is over `maxNumber`.
        private func number(_ text: String?, _ location: String) throws(MediaError) -> Int64? {
            guard let text else { return nil }
            guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0, value <= Self.maxNumber else {
                throw .notMedia(location: location, message: "DASH representation \(id): \"\(text)\" is not a number vplay reads (0 to 2^48)")
            }
            return value
        }

        /// A byte range `FIRST-LAST` (both within `maxNumber`), nil when absent.
        private func range(_ text: String?, _ location: String) throws(MediaError) -> ClosedRange<Int64>? {
            guard let text else { return nil }
            let ends = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard ends.count == 2, let first = try number(ends[0], location), let last = try number(ends[1], location), first <= last else {
                throw .notMedia(location: location, message: "DASH representation \(id): byte range \"\(text)\" is not FIRST-LAST")
            }
            return first...last
        }

        /// `seconds` in `timescale` ticks, at most 2⁶⁰ (a day at 2⁴⁸ ticks a second would overflow 64 bits; that many
        /// ticks are more segments than `maxSegments` anyway).
        static func ticks(_ seconds: Double, _ timescale: Int64) -> Int64 {
            Int64(min((seconds * Double(timescale)).rounded(), Double(Int64(1) << 60)))
        }

        private func tooMany(_ location: String) -> MediaError {
            .formatNotAllowed(location: location, format: "dash (more than \(HLSPlaylist.maxSegments) segments)")
        }

        /// `template` with its identifiers filled (§5.3.9.4.4): `$RepresentationID$`, `$Bandwidth$`, `$Number$`,
        /// `$Time$` (the last three with an optional `%0Nd` width), `$$` for a dollar sign.
        static func fill(_ template: String, id: String, bandwidth: Int?, number: Int64?, time: Int64?) -> String {
            var result = ""
            var rest = Substring(template)
            while let open = rest.firstIndex(of: "$") {
                result += rest[..<open]
                let after = rest.index(after: open)
                guard let close = rest[after...].firstIndex(of: "$") else { result += rest[open...]; return result }
                let identifier = rest[after..<close]
                let (name, width) = identifier.split(separator: "%", maxSplits: 1).map(String.init).splitWidth()
                let value: String?
                switch name {
                case "": value = "$"
                case "RepresentationID": value = id
                case "Bandwidth": value = bandwidth.map(String.init)
                case "Number": value = number.map(String.init)
                case "Time": value = time.map(String.init)
                default: value = nil
                }
                if let value {
                    result += String(repeating: "0", count: max(0, width - value.count)) + value
                } else {
                    result += rest[open...close]
                }
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
    }
}

private extension Array where Element == String {
    /// `["Number", "05d"]` → `("Number", 5)`; no format → width 0.
    func splitWidth() -> (String, Int) {
        guard count == 2 else { return (first ?? "", 0) }
        // A width beyond any real template's (they use 5 to 10) is ignored, not a string of millions of zeros.
        let digits = self[1].drop(while: { $0 == "0" }).prefix(while: { $0.isNumber })
        return (self[0], Swift.min(Int(digits) ?? 0, 32))
    }
}
