import CFFmpeg

/// A media file or URL really demuxed and decoded by FFmpeg (libavformat, libavcodec).
///
/// `nextFrame()` decodes every audio and video stream and hands out frames in presentation order across streams;
/// each decoder is drained at end of stream. Pixels and samples are released as soon as a frame is decoded (vplay is
/// headless), so memory does not grow with the length of the media: only frame timestamps are buffered, for as far
/// as the container interleaves one stream ahead of another. `nextPacket()` is the demux-only pass.
public final class FFmpegMediaSource: MediaSource {
    public let info: MediaInfo
    public private(set) var statistics: DecodeStatistics

    private let format: FormatContext
    private let options: MediaOpenOptions
    private let startTime: Duration
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
    /// Largest packet end seen by the demuxer, for truncation checks.
    private var dataEnd: Duration = .zero

    /// Opens `location` and its decoders. Throws a `MediaError` naming what is wrong.
    public init(location: String, options: MediaOpenOptions = .init()) throws(MediaError) {
        self.options = options
        let format = try FormatContext(location: location, ioTimeout: options.ioTimeout, loadTimeout: options.loadTimeout)
        self.format = format
        self.startTime = format.startTime

        var streams: [StreamInfo] = []
        var stats: [DecodeStatistics.Stream] = []
        var decoders: [Int: CodecContext] = [:]
        for index in 0..<format.streamCount {
            let stream = format.stream(index)
            var info = Self.describe(stream)
            if info.type == .video || info.type == .audio {
                let decoder = try CodecContext(stream: stream, threads: options.decoderThreads)
                info.decodable = decoder != nil
                if let decoder {
                    decoders[index] = decoder
                    slot[index] = stats.count
                    stats.append(.init(index: index, type: info.type))
                }
            }
            streams.append(info)
        }
        self.decoders = decoders
        for index in decoders.keys { pending[index] = []; pendingHead[index] = 0 }
        statistics = DecodeStatistics(streams: stats)
        info = MediaInfo(
            location: location,
            format: format.formatName,
            duration: Double(format.durationMicroseconds) / 1e6,
            durationMicroseconds: format.durationMicroseconds,
            bitRate: format.pointer.pointee.bit_rate > 0 ? Int(format.pointer.pointee.bit_rate) : nil,
            size: format.byteSize,
            streams: streams
        )
        if !streams.contains(where: { $0.type == .video || $0.type == .audio }) {
            // An MP4 cut inside its moov can still open, with no streams: that is a truncated file, not "not media".
            if let detail = format.headerTruncation() { throw MediaError.truncated(location: location, detail: detail) }
            throw MediaError.notMedia(location: location, message: "no audio or video stream")
        }
        if decoders.isEmpty {
            throw MediaError.unsupportedCodec(
                location: location, codecs: streams.filter { $0.type == .video || $0.type == .audio }.map(\.codec))
        }
    }

    // MARK: - Decode mode

    public func nextFrame() throws(MediaError) -> MediaFrame? {
        while true {
            if let next = popEarliestIfReady() { return next }
            if drained {
                if let error = deferredError { deferredError = nil; throw error }
                return nil
            }
            try pump()
        }
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
        }
    }

    private func decode(_ packet: Packet?, with decoder: CodecContext) {
        let index = decoder.streamIndex
        var toSend = packet
        var sent = false
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
                enqueue(frame, from: decoder)
                frame.unref()
            case .needsInput:
                if sent { return }
            case .finished:
                return
            case let .failed(status):
                countError(status, stream: index)
                if sent { return }
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
            start = base.duration(ofTicks: ticks) - startTime
            if stats.type == .audio, raw.sample_rate > 0 {
                // Exact in the stream's ticks when they are 1/sample_rate (MP4 audio); else converted.
                if base.num == 1, base.den == raw.sample_rate {
                    end = base.duration(ofTicks: ticks + Int64(raw.nb_samples)) - startTime
                } else {
                    end = start + AVRational(num: 1, den: raw.sample_rate).duration(ofTicks: Int64(raw.nb_samples))
                }
            } else if raw.pkt_duration > 0 {
                end = base.duration(ofTicks: ticks + raw.pkt_duration) - startTime
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
        pending[index]!.append(mediaFrame)
    }

    private func pendingLastEnd(_ stream: Int) -> Duration? { pending[stream]?.last?.end }

    private func countError(_ status: Int32, stream: Int) {
        lastDecodeError = status
        if let position = slot[stream] { statistics.streams[position].decodeErrors += 1 }
    }

    /// After the last packet: a stream with nothing decodable is corrupt; data that ends well before the container's
    /// duration is a truncated file.
    private func endOfDataError() -> MediaError? {
        let video = statistics.streams.first { $0.type == .video }
        if statistics.frames == 0 || (video.map { $0.frames == 0 } ?? false) {
            return .corruptStream(
                location: info.location, decodeErrors: statistics.decodeErrors,
                message: lastDecodeError == 0 ? "no frames" : FFmpegCode.message(lastDecodeError))
        }
        return truncationError()
    }

    private func truncationError() -> MediaError? {
        let expected = Duration.microseconds(format.durationMicroseconds)
        guard format.durationMicroseconds > 0, dataEnd + options.truncationTolerance < expected else { return nil }
        let detail = "data ends at \(Self.milliseconds(dataEnd)) s of \(Self.milliseconds(expected)) s"
        return .truncated(location: info.location, detail: detail)
    }

    private func noteDemuxed(_ packet: Packet, stream index: Int) {
        let raw = packet.pointer.pointee
        statistics.bytes += Int64(raw.size)
        guard index >= 0, index < format.streamCount else { return }
        let base = format.stream(index).pointee.time_base
        let ticks = raw.pts != FFmpegCode.noTimestamp ? raw.pts : raw.dts
        if ticks != FFmpegCode.noTimestamp {
            let end = base.duration(ofTicks: ticks + max(0, raw.duration)) - startTime
            if end > dataEnd { dataEnd = end }
        }
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
            let time = raw.pts != FFmpegCode.noTimestamp ? base.duration(ofTicks: raw.pts) - startTime : nil
            let result = MediaPacket(
                stream: index, time: time,
                decodeTime: raw.dts != FFmpegCode.noTimestamp ? base.duration(ofTicks: raw.dts) - startTime : nil,
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
        }
    }

    /// Seconds with three decimals, without Foundation's formatter.
    static func milliseconds(_ duration: Duration) -> String {
        let millis = Int64((duration.seconds * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    // MARK: - Describing streams

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>) -> StreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let type: StreamInfo.Kind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let duration = stream.pointee.duration != FFmpegCode.noTimestamp && stream.pointee.duration > 0
            ? stream.pointee.time_base.duration(ofTicks: stream.pointee.duration).seconds : nil
        return StreamInfo(
            index: Int(stream.pointee.index),
            type: type,
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            decodable: false,
            width: type == .video && parameters.width > 0 ? Int(parameters.width) : nil,
            height: type == .video && parameters.height > 0 ? Int(parameters.height) : nil,
            fps: type == .video ? stream.pointee.avg_frame_rate.doubleValue : nil,
            sampleRate: type == .audio && parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil,
            channels: type == .audio && parameters.ch_layout.nb_channels > 0 ? Int(parameters.ch_layout.nb_channels) : nil,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            duration: duration,
            declaredFrames: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
        )
    }
}
