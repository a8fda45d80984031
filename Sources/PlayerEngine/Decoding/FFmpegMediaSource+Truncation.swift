import CFFmpeg

/// How a source tells a cut file from a whole one: what was demuxed of each stream, against what its index and
/// durations promise.
extension FFmpegMediaSource {
    /// The count of one packet demuxed from stream `index`: packets, whether the last was flagged corrupt, and where
    /// the data ends.
    static func tally(_ packet: Packet, stream index: Int, in tallies: inout [DemuxTally]) {
        let raw = packet.pointer.pointee
        guard index >= 0, index < tallies.count else { return }
        tallies[index].packets += 1
        tallies[index].lastCorrupt = raw.flags & AV_PKT_FLAG_CORRUPT != 0
        let ticks = raw.pts != FFmpegCode.noTimestamp ? raw.pts : raw.dts
        if ticks != FFmpegCode.noTimestamp {
            let end = ticks + max(0, raw.duration)
            tallies[index].lastEnd = max(tallies[index].lastEnd ?? end, end)
        }
    }

    /// `truncationError`'s check on any opened `format` and what was read of it: the detail, or nil when whole.
    static func truncation(_ format: FormatContext, tallies: [DemuxTally], kinds: [StreamInfo.Kind], tolerance: Duration) -> String? {
        let atEnd = format.atEndOfData
        let startTime = format.startTime
        var reason: String?
        var dataEnd: Duration?
        var expectedEnd: Duration?
        var furthestAbsolute: Duration?
        var streamsWithDuration = 0
        for index in 0..<format.streamCount {
            let stream = format.stream(index).pointee
            let kind = kinds[index]
            guard kind == .audio || kind == .video else { continue }
            let tally = tallies[index]
            let base = stream.time_base
            let absoluteEnd = tally.lastEnd.map { base.duration(ofTicks: $0) }
            let end = absoluteEnd.map { $0 - startTime }
            if let end { dataEnd = max(dataEnd ?? end, end) }
            if let absoluteEnd { furthestAbsolute = max(furthestAbsolute ?? absoluteEnd, absoluteEnd) }
            let name = "\(kind.rawValue) stream #\(index)"
            if atEnd, stream.nb_frames > 0, Int64(tally.packets) < stream.nb_frames, reason == nil {
                reason = "\(name) has \(tally.packets) of the \(stream.nb_frames) samples its index lists"
            }
            if atEnd, tally.lastCorrupt, reason == nil {
                reason = "the last packet of \(name) is cut short"
            }
            guard stream.duration != FFmpegCode.noTimestamp, stream.duration > 0 else { continue }
            streamsWithDuration += 1
            let first = stream.start_time != FFmpegCode.noTimestamp ? stream.start_time : 0
            let expected = base.duration(ofTicks: first + stream.duration) - startTime
            expectedEnd = max(expectedEnd ?? expected, expected)
            if (end ?? .zero) + tolerance < expected, reason == nil {
                reason = "\(name) ends at \((end ?? .zero).millisecondText) s of \(expected.millisecondText) s"
            }
        }
        if streamsWithDuration == 0, format.durationMicroseconds > 0 {
            // Only the container's duration (Matroska): it may count from 0 or from the start time, so the data
            // must fall short under both readings.
            let expected = Duration.microseconds(format.durationMicroseconds)
            expectedEnd = expected
            let furthest = max(dataEnd ?? .zero, furthestAbsolute ?? .zero)
            if furthest + tolerance < expected, reason == nil { reason = "" }
        }
        guard let reason else { return nil }
        let ending = dataEnd ?? .zero
        var detail = "data ends at \(ending.millisecondText) s of \(max(expectedEnd ?? ending, ending).millisecondText) s"
        if !reason.isEmpty { detail += " (\(reason))" }
        return detail
    }
}
