import CFFmpeg

extension FFmpegMediaSource {
    /// Where the media's bytes are on its timeline (`DeliveryMap`), from a demux pass over a new opening of
    /// `location` (a local file is read again; a remote one requested again): each audio and video packet's
    /// presentation time (minus `timelineStart`, as frames have them) and byte end, and for an MP4 where its `moov`
    /// box ends. Packets the container marks discarded do not count. For an HLS or DASH MediaFile (`options.streaming`)
    /// the bytes are the playlists' and segments' as the demuxer requests them, one download in request order: a
    /// packet's byte end is everything read when it was demuxed.
    public static func deliveryMap(location: String, options: MediaOpenOptions, timelineStart: Duration) throws(MediaError) -> DeliveryMap {
        let format = try FormatContext(location: location, ioTimeout: options.ioTimeout, loadTimeout: options.loadTimeout,
                                       urlGate: options.urlGate, redirects: options.redirects, proxy: options.proxy,
                                       streaming: options.streaming)
        let nested = format.nested
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
                guard ticks != FFmpegCode.noTimestamp, raw.pos >= 0 || nested != nil else { continue reading }
                let end = nested?.bytesDelivered ?? raw.pos + Int64(raw.size)
                let start = nested == nil ? raw.pos : end
                firstPosition = min(firstPosition ?? start, start)
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
        let size = nested?.bytesDelivered ?? format.byteSize ?? furthest
        var header = firstPosition ?? 0
        var headerAtEnd = false
        if FormatContext.isMP4Family(format.formatName), let movie = FormatContext.mp4MovieBox(format.io) {
            header = movie.end
            headerAtEnd = movie.afterMediaData
        }
        return DeliveryMap(size: size, headerBytes: header, headerAtEnd: headerAtEnd, packets: packets)
    }
}
