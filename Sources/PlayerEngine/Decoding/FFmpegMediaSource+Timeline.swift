import CFFmpeg

extension FFmpegMediaSource {
    // MARK: - The presentation timeline

    /// The timeline as the container's index gives it, without reading a packet: the first presented video stream's
    /// start (any presented stream's without video) to the furthest start + duration of the presented streams
    /// (MP4: from the sample tables, edit lists applied; the `mvhd` duration is not used). When a stream has no
    /// duration (Matroska), the header's duration counted from 0.
    static func streamTimeline(_ format: FormatContext, presented: Set<Int>, kinds: [StreamInfo.Kind]) -> PresentationTimeline {
        let hasVideo = presented.contains { kinds[$0] == .video }
        var start: Duration?
        var end: Duration?
        var everyEnd = !presented.isEmpty
        var frame: Duration = .zero
        for index in presented.sorted() {
            let stream = format.stream(index).pointee
            let base = stream.time_base
            let first = stream.start_time != FFmpegCode.noTimestamp ? stream.start_time : nil
            let picture = !hasVideo || kinds[index] == .video
            if picture, let first { start = min(start ?? base.duration(ofTicks: first), base.duration(ofTicks: first)) }
            if let first, stream.duration != FFmpegCode.noTimestamp, stream.duration > 0 {
                let last = base.duration(ofTicks: first + stream.duration)
                end = max(end ?? last, last)
            } else {
                everyEnd = false
            }
            if picture, kinds[index] == .video, let fps = stream.avg_frame_rate.doubleValue, fps > 0 {
                frame = max(frame, .seconds(1 / fps))
            }
        }
        let origin = start ?? format.startTime
        if everyEnd, let end { return PresentationTimeline(start: origin, end: max(origin, end), measuredBy: .streams, frame: frame) }
        return PresentationTimeline(start: origin, end: max(origin, format.declaredDuration ?? .zero), measuredBy: .container, frame: frame)
    }

    /// The timeline the frames have, from a demux pass over a second opening of `location`: the earliest presentation
    /// time of a presented video packet (of any presented packet without video; an audio packet's leading skipped
    /// samples excluded) to the furthest packet end. Packets the container marks discarded (outside an edit list) do
    /// not count. Nil when the pass cannot tell: the file does not open or read again, or its data is cut short
    /// (then the header's timing stands, and playback fails where the data ends, as it does for a remote file).
    /// With `mapDelivery`, the same pass also maps the packets' bytes (`DeliveryMap`, for a simulated network), so the
    /// file is not read through once more for it.
    static func measureTimeline(location: String, options: MediaOpenOptions, presented: Set<Int>, kinds: [StreamInfo.Kind],
                                mapDelivery: Bool = false) -> (timeline: PresentationTimeline, delivery: DeliveryMap?)? {
        let elapsed = options.passStopwatch?()
        guard !presented.isEmpty,
              let format = try? FormatContext(location: location, ioTimeout: options.ioTimeout, loadTimeout: options.loadTimeout),
              format.streamCount == kinds.count else { return nil }
        let packet = Packet()
        var tallies = Array(repeating: DemuxTally(), count: format.streamCount)
        let hasVideo = presented.contains { kinds[$0] == .video }
        var start: Duration?
        var end: Duration?
        var frame: Duration = .zero
        var bytes: [(time: Duration, end: Int64)] = []
        var firstPosition: Int64?
        reading: while true {
            switch format.read(into: packet) {
            case .packet:
                defer { packet.unref() }
                let raw = packet.pointer.pointee
                let index = Int(raw.stream_index)
                tally(packet, stream: index, in: &tallies)
                guard presented.contains(index), raw.flags & AV_PKT_FLAG_DISCARD == 0 else { continue reading }
                let ticks = raw.pts != FFmpegCode.noTimestamp ? raw.pts : raw.dts
                guard ticks != FFmpegCode.noTimestamp else { continue reading }
                let stream = format.stream(index).pointee
                let base = stream.time_base
                let length = max(0, raw.duration)
                let last = base.duration(ofTicks: ticks + length)
                end = max(end ?? last, last)
                if mapDelivery, raw.pos >= 0 {
                    bytes.append((base.duration(ofTicks: ticks), raw.pos + Int64(raw.size)))
                    firstPosition = min(firstPosition ?? raw.pos, raw.pos)
                }
                guard !hasVideo || kinds[index] == .video else { continue reading }
                var first = base.duration(ofTicks: ticks)
                let rate = stream.codecpar.pointee.sample_rate
                if kinds[index] == .audio, rate > 0, let skipped = skippedSamples(packet) {
                    first += AVRational(num: 1, den: rate).duration(ofTicks: skipped)
                }
                start = min(start ?? first, first)
                frame = max(frame, base.duration(ofTicks: length))
            case .endOfFile:
                break reading
            case .failed, .timedOut, .nestedFailed:
                return nil
            }
        }
        guard truncation(format, tallies: tallies, kinds: kinds, tolerance: options.truncationTolerance) == nil,
              let start, let end, end > start else { return nil }
        var delivery: DeliveryMap?
        if mapDelivery {
            let size = format.byteSize ?? bytes.map(\.end).max() ?? 0
            let movie = FormatContext.isMP4Family(format.formatName) ? FormatContext.mp4MovieBox(format.io) : nil
            delivery = DeliveryMap(size: size, headerBytes: movie?.end ?? firstPosition ?? 0, headerAtEnd: movie?.afterMediaData ?? false,
                                   packets: bytes.map { ($0.time - start, $0.end) })
        }
        return (PresentationTimeline(start: start, end: end, measuredBy: .frames, frame: frame, passTime: elapsed?()), delivery)
    }

    /// The samples the decoder drops from the front of an audio packet (`AV_PKT_DATA_SKIP_SAMPLES`: AAC priming
    /// outside an edit list), nil when none.
    private static func skippedSamples(_ packet: Packet) -> Int64? {
        var size: Int = 0
        guard let data = av_packet_get_side_data(packet.pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else { return nil }
        let skipped = Int64(data[0]) | Int64(data[1]) << 8 | Int64(data[2]) << 16 | Int64(data[3]) << 24
        return skipped > 0 ? skipped : nil
    }
}
