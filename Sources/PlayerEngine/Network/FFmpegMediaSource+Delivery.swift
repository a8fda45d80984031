import CFFmpeg

extension FFmpegMediaSource {
    /// Where the media's bytes are on its timeline (`DeliveryMap`), from a demux pass over a new opening of
    /// `location` (a local file is read again; a remote one requested again): each audio and video packet's
    /// presentation time (minus `timelineStart`, as frames have them) and byte end, and for an MP4 where its `moov`
    /// box ends. Packets the container marks discarded do not count.
    public static func deliveryMap(location: String, options: MediaOpenOptions, timelineStart: Duration) throws(MediaError) -> DeliveryMap {
        let format = try FormatContext(location: location, ioTimeout: options.ioTimeout, loadTimeout: options.loadTimeout,
                                       urlGate: options.urlGate, redirects: options.redirects, proxy: options.proxy)
        let packet = Packet()
        var packets: [(time: Duration, end: Int64)] = []
        var firstPosition: Int64?
        var furthest: Int64 = 0
        reading: while true {
            switch format.read(into: packet) {
            case .packet:
                defer { packet.unref() }
                let raw = packet.pointer.pointee
                let stream = format.stream(Int(raw.stream_index)).pointee
                let kind = stream.codecpar.pointee.codec_type
                guard kind == AVMEDIA_TYPE_VIDEO || kind == AVMEDIA_TYPE_AUDIO, raw.flags & AV_PKT_FLAG_DISCARD == 0 else { continue reading }
                let ticks = raw.pts != FFmpegCode.noTimestamp ? raw.pts : raw.dts
                guard ticks != FFmpegCode.noTimestamp, raw.pos >= 0 else { continue reading }
                let end = raw.pos + Int64(raw.size)
                firstPosition = min(firstPosition ?? raw.pos, raw.pos)
                furthest = max(furthest, end)
                packets.append((stream.time_base.duration(ofTicks: ticks) - timelineStart, end))
            case .endOfFile:
                break reading
            case let .failed(status):
                throw MediaError.readFailed(location: location, message: "reading its packets to map its bytes failed (\(FFmpegCode.message(status)))")
            case let .timedOut(limit):
                throw MediaError.readTimedOut(location: location, limit: limit)
            case let .nestedFailed(failure):
                throw failure
            }
        }
        let size = format.byteSize ?? furthest
        var header = firstPosition ?? 0
        var headerAtEnd = false
        if FormatContext.isMP4Family(format.formatName), let movie = FormatContext.mp4MovieBox(format.io) {
            header = movie.end
            headerAtEnd = movie.afterMediaData
        }
        return DeliveryMap(size: size, headerBytes: header, headerAtEnd: headerAtEnd, packets: packets)
    }
}
