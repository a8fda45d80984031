import CFFmpeg

extension FFmpegMediaSource {
    /// Each stream of `format` described, and a decoder opened for each audio and video stream that has one (or,
    /// for a demux-only pass, found to exist).
    struct OpenedStreams {
        var streams: [StreamInfo] = []
        var statistics: [DecodeStatistics.Stream] = []
        var decoders: [Int: CodecContext] = [:]
        /// Why a stream's decoder could not be opened.
        var failures: [Int: MediaError] = [:]
        /// Streams that are an attached picture (cover art), not video.
        var pictures: Set<Int> = []
        /// Each stream's codec, as an error names it.
        var labels: [Int: String] = [:]
        /// Each decoded stream's place in `statistics`.
        var slots: [Int: Int] = [:]
    }

    static func openStreams(of format: FormatContext, options: MediaOpenOptions, location: String) -> OpenedStreams {
        var opened = OpenedStreams()
        for index in 0..<format.streamCount {
            let stream = format.stream(index)
            var info = Self.describe(stream)
            if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 { opened.pictures.insert(index) }
            opened.labels[index] = Self.codecLabel(stream)
            if info.type == .video || info.type == .audio {
                do {
                    // A demux-only pass needs to know that a decoder exists, not to open it.
                    let decoder = options.openDecoders
                        ? try CodecContext(stream: stream, threads: options.decoderThreads, location: location) : nil
                    if decoder != nil || (!options.openDecoders && avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) != nil) {
                        info.decodable = true
                        opened.decoders[index] = decoder
                        opened.slots[index] = opened.statistics.count
                        opened.statistics.append(.init(index: index, type: info.type))
                    }
                } catch {
                    opened.failures[index] = error
                }
            }
            opened.streams.append(info)
        }
        return opened
    }
}
