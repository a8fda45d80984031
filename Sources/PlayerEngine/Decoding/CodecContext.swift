import CFFmpeg

/// Owns one opened decoder (`AVCodecContext`) for one stream; freed in `deinit`.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let streamIndex: Int
    let timeBase: AVRational

    /// Opens a decoder for `stream`, or returns nil when this FFmpeg build has none for its codec.
    /// - Parameters:
    ///   - threads: decoder threads; 0 lets FFmpeg pick one per core, as the `ffmpeg` CLI does by default.
    ///   - location: the media's path or URL, for the error.
    /// - Throws: `MediaError.decoderFailed` when the decoder exists but will not open with this stream's parameters.
    init?(stream: UnsafeMutablePointer<AVStream>, threads: Int, location: String) throws(MediaError) {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { return nil }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        pointer = context
        streamIndex = Int(stream.pointee.index)
        timeBase = stream.pointee.time_base
        let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))

        // `pointer` is set, so deinit frees the context on a throw.
        let copied = avcodec_parameters_to_context(context, parameters)
        if copied < 0 {
            throw MediaError.decoderFailed(location: location, codec: name, message: FFmpegCode.message(copied))
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = Int32(min(max(0, threads), 1024))
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 {
            throw MediaError.decoderFailed(location: location, codec: name, message: FFmpegCode.message(opened))
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    enum SendResult { case accepted, full, failed(Int32) }
    enum ReceiveResult { case frame, needsInput, finished, failed(Int32) }

    /// Sends one packet (or nil to start draining the decoder at end of stream).
    func send(_ packet: Packet?) -> SendResult {
        let status = avcodec_send_packet(pointer, packet?.pointer)
        if status >= 0 || status == FFmpegCode.endOfFile { return .accepted }
        if status == FFmpegCode.tryAgain { return .full }
        return .failed(status)
    }

    /// Takes the next decoded frame into `frame`, if one is ready.
    func receive(into frame: Frame) -> ReceiveResult {
        let status = avcodec_receive_frame(pointer, frame.pointer)
        if status >= 0 { return .frame }
        if status == FFmpegCode.tryAgain { return .needsInput }
        if status == FFmpegCode.endOfFile { return .finished }
        return .failed(status)
    }
}
