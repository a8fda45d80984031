import Primitives
import CFFmpeg

/// A media file or URL really demuxed and decoded by FFmpeg (libavformat, libavcodec).
///
/// `nextFrame()` decodes every audio and video stream and hands out frames in presentation order across streams;
/// each decoder is drained at end of stream. Pixels and samples are released as soon as a frame is decoded (vplay is
/// headless), so memory does not grow with the length of the media: only frame timestamps are buffered, for as far
/// as the container interleaves one stream ahead of another. `nextPacket()` is the demux-only pass.
public final class FFmpegMediaSource: MediaSource {
    /// What the container says, read at open, with the presentation timeline measured then.
    public let info: MediaInfo
    /// Counts so far: frames or packets per stream, decode errors, bytes read.
    public private(set) var statistics: DecodeStatistics

    private let format: FormatContext
    private let options: MediaOpenOptions
    /// The ad's first shown picture in the file's timestamps (`info.timeline.start`): where frame times count from.
    private let origin: Duration
    private var decoders: [Int: CodecContext] = [:]
    /// Index into `statistics.streams` for each container stream index.
    private var slot: [Int: Int] = [:]
    private let packet = Packet()
    private let frame = Frame()
    /// Decoded frames not handed out yet, per stream, in presentation order.
    private var pending: [Int: [MediaFrame]] = [:]
    private var pendingHead: [Int: Int] = [:]
    private var drained = false
    private var deferredError: MediaError?
    private var lastDecodeError: Int32 = 0
    /// What the demuxer has read of each container stream (by index), for the truncation checks at the end.
    private var tallies: [DemuxTally]
    /// Creative QA on the frames as they are decoded (`MediaOpenOptions.analyzeCreative`).
    private var creative: CreativeAnalysis?

    /// A decoder that fails this many times in a row while draining, without a frame or the end, is stuck: stop.
    /// A frame-threaded decoder holds at most one frame per thread, each of which can fail once; FFmpeg never uses
    /// more than a few dozen threads, so 1024 is far above any honest drain.
    static let drainFailureLimit = 1024

    /// Opens `location` and its decoders. Throws a `MediaError` naming what is wrong.
    @_spi(LiveParts) public init(location: String, options: MediaOpenOptions = .init()) throws(MediaError) {
        self.options = options
        creative = options.analyzeCreative ? CreativeAnalysis() : nil
        let format = try FormatContext(location: location, ioTimeout: options.ioTimeout, loadTimeout: options.loadTimeout,
                                       urlGate: options.urlGate, redirects: options.redirects,
                                       throttle: options.throttle, proxy: options.proxy,
                                       streaming: options.streaming)
        self.format = format
        tallies = Array(repeating: DemuxTally(), count: format.streamCount)
        if creative != nil, format.nested == nil, FormatContext.isMP4Family(format.formatName) {
            // The top-level boxes are walked on the open input; the demuxer seeks to each sample it reads anyway,
            // and its position is put back.
            let position = avio_tell(format.io)
            creative?.report.moovAfterMediaData = FormatContext.mp4MovieBox(format.io)?.afterMediaData ?? false
            avio_seek(format.io, position, SEEK_SET)
        }

        let opened = Self.openStreams(of: format, options: options, location: location)
        let (streams, stats, decoders, decoderFailures, pictures, labels) =
            (opened.streams, opened.statistics, opened.decoders, opened.failures, opened.pictures, opened.labels)
        slot = opened.slots
        self.decoders = decoders
        for index in decoders.keys { pending[index] = []; pendingHead[index] = 0 }
        statistics = DecodeStatistics(streams: stats)
        let playable = streams.filter { $0.type == .audio || ($0.type == .video && !pictures.contains($0.index)) }
        if playable.isEmpty {
            // An MP4 cut inside its moov can still open, with no streams: that is a truncated file, not "not media".
            if let detail = format.headerTruncation() { throw MediaError.truncated(location: location, detail: detail) }
            throw MediaError.notMedia(location: location, message: "no audio or video stream")
        }
        // Nothing decodable, or video that cannot be decoded: a video ad must not "play" as its sound alone.
        let video = playable.filter { $0.type == .video }
        let required = stats.isEmpty ? playable : video.contains(where: \.decodable) ? [] : video
        if !required.isEmpty {
            if let failure = required.lazy.compactMap({ decoderFailures[$0.index] }).first { throw failure }
            throw MediaError.unsupportedCodec(location: location, codecs: required.filter { !$0.decodable }.map { labels[$0.index]! })
        }

        // The frames' own timeline, not the header's duration (which can say anything) nor the container's start.
        let presented = Set(stats.map(\.index))
        let kinds = streams.map(\.type)
        var timeline = options.knownTimeline ?? Self.streamTimeline(format, presented: presented, kinds: kinds)
        if options.knownTimeline == nil, format.nested != nil, let declared = format.declaredDuration {
            // HLS: the playlist's duration (its `#EXTINF`s), counted from the first shown picture.
            timeline = PresentationTimeline(start: timeline.start, end: timeline.start + declared, measuredBy: .container, frame: timeline.frame)
        }
        if options.knownTimeline == nil, options.measureTimeline, format.isRegularLocalFile, format.nested == nil,
           let measured = Self.measureTimeline(location: location, options: options, presented: presented, kinds: kinds,
                                               mapDelivery: options.mapDelivery) {
            timeline = measured.timeline
            deliveryMap = measured.delivery
        }
        origin = timeline.start
        info = MediaInfo(
            location: location,
            format: format.formatName,
            duration: timeline.duration.seconds,
            timeline: timeline,
            declaredDuration: format.declaredDuration,
            // HLS: FFmpeg's figure is not the stream's (the playlist's bytes over its duration).
            bitRate: format.nested == nil && format.pointer.pointee.bit_rate > 0 ? Int(format.pointer.pointee.bit_rate) : nil,
            size: format.nested == nil ? format.byteSize : nil,
            streams: streams,
            variant: format.variant
        )
    }

    // MARK: - Decode mode

    /// How many times a read has waited for bytes a simulated network had not delivered yet.
    public var networkWaits: Int { format.networkWaits }

    /// What creative QA measured of the frames decoded so far; nil unless opened with `analyzeCreative`.
    public var creativeReport: CreativeReport? { creative?.result }

    /// Where the media's bytes are, when the open's timeline pass mapped them (`MediaOpenOptions.mapDelivery`).
    public private(set) var deliveryMap: DeliveryMap?

    /// The next decoded frame in presentation order across streams, or nil after the last; always nil when the source
    /// was opened without decoders (`MediaOpenOptions.openDecoders`).
    /// - Throws: `MediaError` when the media turns out to be unplayable while decoding.
    public func nextFrame() throws(MediaError) -> MediaFrame? {
        guard options.openDecoders else { return nil }
        while true {
            if let next = popEarliestIfReady() {
                if let bound = declaredEndBound, next.time >= bound { throw overrun(at: next.time) }
                return next
            }
            if drained {
                if let error = deferredError { deferredError = nil; throw error }
                return nil
            }
            try pump()
        }
    }

    /// Where a frame means the media is longer than its container declares, for a timeline the container declared
    /// (an HLS playlist's `#EXTINF`s, a header without per-stream durations): the declared duration plus the
    /// truncation tolerance, in frame time. Nil when the frames' own timeline was measured or given.
    private var declaredEndBound: Duration? {
        guard info.timeline.measuredBy == .container, options.knownTimeline == nil else { return nil }
        return info.timeline.duration + options.truncationTolerance
    }

    /// The error for a frame at `time`, past ``declaredEndBound``.
    private func overrun(at time: Duration) -> MediaError {
        let declared = info.timeline.duration.millisecondText
        let what = switch (format.nested != nil, info.format) {
        case (true, "hls"): "the playlist's #EXTINF durations add up to \(declared) s"
        case (true, _): "the manifest's segment durations add up to \(declared) s"
        default: "the \(info.format) container declares \(declared) s"
        }
        return .durationMismatch(location: info.location, detail: "\(what), yet a frame starts at \(time.millisecondText) s "
            + "(more than \(options.truncationTolerance.millisecondText) s past it)")
    }

    /// The earliest pending frame, once every stream still decoding has one queued (so nothing earlier can come).
    private func popEarliestIfReady() -> MediaFrame? {
        var best: (stream: Int, frame: MediaFrame)?
        for (stream, queue) in pending {
            let head = pendingHead[stream]!
            guard head < queue.count else {
                if drained { continue }
                return nil
            }
            let candidate = queue[head]
            if let current = best {
                if candidate.time < current.frame.time || (candidate.time == current.frame.time && stream < current.stream) {
                    best = (stream, candidate)
                }
            } else {
                best = (stream, candidate)
            }
        }
        guard let best else { return nil }
        let head = pendingHead[best.stream]! + 1
        if head >= 256, head * 2 >= pending[best.stream]!.count {
            pending[best.stream]!.removeFirst(head)
            pendingHead[best.stream] = 0
        } else {
            pendingHead[best.stream] = head
        }
        return best.frame
    }

    /// Reads one packet and decodes it, or drains every decoder at end of input.
    private func pump() throws(MediaError) {
        switch format.read(into: packet) {
        case .packet:
            defer { packet.unref() }
            let index = Int(packet.pointer.pointee.stream_index)
            noteDemuxed(packet, stream: index)
            guard let decoder = decoders[index] else { return }
            decode(packet, with: decoder)
        case .endOfFile:
            for decoder in decoders.values.sorted(by: { $0.streamIndex < $1.streamIndex }) { decode(nil, with: decoder) }
            drained = true
            deferredError = endOfDataError()
        case let .failed(status):
            throw MediaError.readFailed(location: info.location, message: FFmpegCode.message(status))
        case let .timedOut(limit):
            throw MediaError.readTimedOut(location: info.location, limit: limit)
        case let .nestedFailed(failure):
            // A segment that failed mid-ad: the data ends here, as a file cut short does (frames decoded so far play).
            for decoder in decoders.values.sorted(by: { $0.streamIndex < $1.streamIndex }) { decode(nil, with: decoder) }
            drained = true
            deferredError = segmentError(failure)
        }
    }

    /// The error of an HLS ad whose segment failed: `truncated` (405, as media that ends early), naming the segment;
    /// a refused segment URL keeps its own error.
    private func segmentError(_ failure: MediaError) -> MediaError {
        switch failure {
        case .notFound, .unreachable:
            let end = statistics.streams.compactMap(\.end).max() ?? 0
            return .truncated(location: info.location, detail: "data ends at \(Duration.seconds(end).millisecondText) s of "
                + "\(info.timeline.duration.millisecondText) s (\(failure.description))")
        default: return failure
        }
    }

    private func decode(_ packet: Packet?, with decoder: CodecContext) {
        let index = decoder.streamIndex
        let draining = packet == nil
        var toSend = packet
        var sent = false
        var failuresInARow = 0
        while true {
            if !sent {
                switch decoder.send(toSend) {
                case .accepted: sent = true
                case .full: break // take frames out first, then send again
                case let .failed(status):
                    countError(status, stream: index)
                    sent = true
                    toSend = nil
                }
            }
            switch decoder.receive(into: frame) {
            case .frame:
                failuresInARow = 0
                enqueue(frame, from: decoder)
                frame.unref()
            case .needsInput:
                if sent { return }
            case .finished:
                return
            case let .failed(status):
                countError(status, stream: index)
                guard sent else { continue }
                // Mid-stream the next packet picks up what is left. Draining, there is no next packet: frame threads
                // still hold the frames behind a bad one, so keep receiving until the decoder says it is finished.
                guard draining else { return }
                failuresInARow += 1
                if failuresInARow >= Self.drainFailureLimit { return }
            }
        }
    }

    private func enqueue(_ frame: Frame, from decoder: CodecContext) {
        let raw = frame.pointer.pointee
        let index = decoder.streamIndex
        let base = decoder.timeBase
        var stats = statistics.streams[slot[index]!]
        let previousEnd = stats.end.map { Duration.seconds($0) }

        let start: Duration
        let end: Duration
        let ticks = raw.best_effort_timestamp != FFmpegCode.noTimestamp ? raw.best_effort_timestamp : raw.pts
        if ticks != FFmpegCode.noTimestamp {
            start = base.duration(ofTicks: ticks) - origin
            if stats.type == .audio, raw.sample_rate > 0 {
                // Exact in the stream's ticks when they are 1/sample_rate (MP4 audio); else converted.
                let samplesEnd = base.num == 1 && base.den == raw.sample_rate
                    ? base.duration(ofTicks: ticks + Int64(raw.nb_samples)) - origin
                    : start + AVRational(num: 1, den: raw.sample_rate).duration(ofTicks: Int64(raw.nb_samples))
                // The container may present less than the decoder outputs: an MP4 edit list ends AAC's last
                // 1024-sample frame after 680 samples, and that packet's duration says so.
                end = raw.pkt_duration > 0 ? min(samplesEnd, base.duration(ofTicks: ticks + raw.pkt_duration) - origin) : samplesEnd
            } else if raw.pkt_duration > 0 {
                end = base.duration(ofTicks: ticks + raw.pkt_duration) - origin
            } else {
                end = start
            }
        } else {
            start = pendingLastEnd(index) ?? previousEnd ?? .zero
            end = start
        }

        let mediaFrame = MediaFrame(stream: index, type: stats.type, time: start, end: max(start, end), isKeyFrame: raw.key_frame != 0)
        stats.frames += 1
        if stats.firstTime == nil { stats.firstTime = start.seconds }
        stats.lastTime = start.seconds
        stats.end = max(stats.end ?? 0, mediaFrame.end.seconds)
        statistics.streams[slot[index]!] = stats
        creative?.add(frame.pointer, kind: stats.type, stream: index, start: mediaFrame.time.seconds, end: mediaFrame.end.seconds)
        pending[index]!.append(mediaFrame)
    }

    private func pendingLastEnd(_ stream: Int) -> Duration? { pending[stream]?.last?.end }

    private func countError(_ status: Int32, stream: Int) {
        lastDecodeError = status
        if let position = slot[stream] { statistics.streams[position].decodeErrors += 1 }
    }

    /// After the last packet: data that stops short is a truncated file (checked first: a file cut before its first
    /// frame decodes nothing, yet is truncated rather than corrupt); a stream with nothing decodable is corrupt.
    private func endOfDataError() -> MediaError? {
        if let truncated = truncationError() { return truncated }
        let video = statistics.streams.first { $0.type == .video }
        if statistics.frames == 0 || (video.map { $0.frames == 0 } ?? false) {
            return .corruptStream(
                location: info.location, decodeErrors: statistics.decodeErrors,
                message: lastDecodeError == 0 ? "no frames" : FFmpegCode.message(lastDecodeError))
        }
        return nil
    }

    /// At the end of the data, per audio and video stream, each in its own time base:
    /// - a sample index (MP4) lists every sample: fewer read, once the reader hit the end of the data, is a cut;
    /// - a last packet the demuxer flagged corrupt at the end of the data was cut short;
    /// - a stream whose packets end short of its own start + duration by more than the tolerance was cut (for
    ///   containers without a per-stream duration, the same against the container's duration).
    private func truncationError() -> MediaError? {
        Self.truncation(format, tallies: tallies, kinds: info.streams.map(\.type), tolerance: options.truncationTolerance)
            .map { .truncated(location: info.location, detail: $0) }
    }

    private func noteDemuxed(_ packet: Packet, stream index: Int) {
        statistics.bytes += Int64(packet.pointer.pointee.size)
        Self.tally(packet, stream: index, in: &tallies)
    }

    // MARK: - Demux-only mode

    /// The next packet without decoding (demux-only pass), or nil at end of input. Throws `truncated` at the end of
    /// a file whose data stops short of its duration. Do not mix with `nextFrame()` on the same source.
    public func nextPacket() throws(MediaError) -> MediaPacket? {
        switch format.read(into: packet) {
        case .packet:
            defer { packet.unref() }
            let raw = packet.pointer.pointee
            let index = Int(raw.stream_index)
            noteDemuxed(packet, stream: index)
            let base = format.stream(index).pointee.time_base
            let time = raw.pts != FFmpegCode.noTimestamp ? base.duration(ofTicks: raw.pts) - origin : nil
            let result = MediaPacket(
                stream: index, time: time,
                decodeTime: raw.dts != FFmpegCode.noTimestamp ? base.duration(ofTicks: raw.dts) - origin : nil,
                duration: base.duration(ofTicks: max(0, raw.duration)), size: Int(raw.size),
                isKeyFrame: raw.flags & AV_PKT_FLAG_KEY != 0)
            if let position = slot[index] {
                var stats = statistics.streams[position]
                stats.frames += 1
                if let time {
                    if stats.firstTime == nil { stats.firstTime = time.seconds }
                    stats.lastTime = max(stats.lastTime ?? time.seconds, time.seconds)
                    stats.end = max(stats.end ?? 0, (time + result.duration).seconds)
                }
                statistics.streams[position] = stats
            }
            return result
        case .endOfFile:
            if let error = truncationError() { throw error }
            return nil
        case let .failed(status):
            throw MediaError.readFailed(location: info.location, message: FFmpegCode.message(status))
        case let .timedOut(limit):
            throw MediaError.readTimedOut(location: info.location, limit: limit)
        case let .nestedFailed(failure):
            throw segmentError(failure)
        }
    }
}
