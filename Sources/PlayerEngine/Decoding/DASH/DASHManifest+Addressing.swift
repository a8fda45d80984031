import Foundation

extension DASHManifest {
    /// How one representation names its segments (ISO/IEC 23009-1 §5.3.9): a `SegmentTemplate` (the
    /// representation's own attributes over its AdaptationSet's) with a `SegmentTimeline` or a fixed `duration`, a
    /// `SegmentList`, or else one file, the representation's `BaseURL` (the on-demand profile's indexed fMP4).
    struct Addressing {
        let set: DASHManifest.Element
        let representation: DASHManifest.Element
        let id: String
        let bandwidth: Int?
        /// The representation's resolved `BaseURL` (the manifest's URL when none is given).
        let base: String
        let periodDuration: Double?

        /// The initialization segment (if any) and the media segments, in order.
        func segments(location: String) throws(MediaError) -> (String?, [Segment]) {
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
                               location: String) throws(MediaError) -> (String?, [Segment]) {
            guard let media = attributes["media"] else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTemplate without media")
            }
            let timescale = max(1, attributes["timescale"].flatMap { Int64($0) } ?? 1)
            let startNumber = attributes["startNumber"].flatMap { Int64($0) } ?? 1
            let offset = attributes["presentationTimeOffset"].flatMap { Int64($0) } ?? 0
            var slots: [(time: Int64, duration: Int64)] = []
            if let timeline, !timeline.isEmpty {
                var time: Int64 = 0
                for (index, entry) in timeline.enumerated() {
                    if let start = entry["t"].flatMap({ Int64($0) }) { time = start }
                    guard let duration = entry["d"].flatMap({ Int64($0) }), duration > 0 else {
                        throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTimeline S without d")
                    }
                    var repeats = entry["r"].flatMap { Int64($0) } ?? 0
                    if repeats < 0 {
                        // Until the next S's start, or the period's end.
                        let end = index + 1 < timeline.count ? timeline[index + 1]["t"].flatMap { Int64($0) }
                            : periodDuration.map { offset + Int64(($0 * Double(timescale)).rounded()) }
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
            } else if let duration = attributes["duration"].flatMap({ Int64($0) }), duration > 0 {
                guard let periodDuration, periodDuration > 0 else {
                    throw .notMedia(location: location, message: "DASH representation \(id): segments of a fixed duration, and no period duration")
                }
                let total = Int64((periodDuration * Double(timescale)).rounded())
                let count = (total + duration - 1) / duration
                guard count <= Int64(HLSPlaylist.maxSegments) else { throw tooMany(location) }
                for index in 0..<count {
                    slots.append((offset + index * duration, min(duration, total - index * duration)))
                }
            } else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentTemplate without a timeline or duration")
            }
            let initialization = attributes["initialization"].map {
                HLSPlaylist.resolve(Self.fill($0, id: id, bandwidth: bandwidth, number: nil, time: nil), against: base)
            }
            let segments = slots.enumerated().map { index, slot in
                Segment(url: HLSPlaylist.resolve(Self.fill(media, id: id, bandwidth: bandwidth, number: startNumber + Int64(index), time: slot.time),
                                                 against: base),
                        duration: Double(slot.duration) / Double(timescale))
            }
            return (initialization, segments)
        }

        private func listed(_ list: DASHManifest.Element, location: String) throws(MediaError) -> (String?, [Segment]) {
            let timescale = max(1, list["timescale"].flatMap { Int64($0) } ?? 1)
            let entries = list.children("SegmentURL")
            guard !entries.isEmpty else { throw .notMedia(location: location, message: "DASH representation \(id): an empty SegmentList") }
            guard entries.count <= HLSPlaylist.maxSegments else { throw tooMany(location) }
            guard !entries.contains(where: { $0["mediaRange"] != nil }),
                  list.children("Initialization").first?["range"] == nil else {
                throw .formatNotAllowed(location: location, format: "dash SegmentList with byte ranges (whole-file segments only)")
            }
            let fixed = list["duration"].flatMap { Double($0) }.map { $0 / Double(timescale) }
            guard let each = fixed ?? periodDuration.map({ $0 / Double(entries.count) }) else {
                throw .notMedia(location: location, message: "DASH representation \(id): a SegmentList without durations")
            }
            let initialization = list.children("Initialization").first?["sourceURL"].map { HLSPlaylist.resolve($0, against: base) }
            var segments = entries.compactMap { entry in
                entry["media"].map { Segment(url: HLSPlaylist.resolve($0, against: base), duration: each) }
            }
            // The last segment of a fixed-duration list ends with the period.
            if fixed != nil, let periodDuration, let last = segments.indices.last {
                let rest = periodDuration - each * Double(last)
                if rest > 0, rest < each { segments[last].duration = rest }
            }
            return (initialization, segments)
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
        let digits = self[1].drop(while: { $0 == "0" }).prefix(while: { $0.isNumber })
        return (self[0], Int(digits) ?? 0)
    }
}
