import Networking
import CFFmpeg
import Foundation

extension FormatContext {
    /// Demuxers an HLS playlist and its segments may use: the playlist itself, MPEG-TS segments, fragmented MP4
    /// (`#EXT-X-MAP`) segments. Nothing that opens further URLs of its own (`dash`, `concat`, `image2`…).
    static let hlsFormats = "hls,mpegts,mov,mp4,m4a,3gp,3g2,mj2"
    /// Requests FFmpeg may make for an HLS ad beyond its segments (the variant playlist, an `#EXT-X-MAP`, renditions).
    static let hlsExtraOpens = 16

    /// Opens an HLS playlist whose first bytes `reader` holds (the caller closes it): vplay reads the playlist, chooses
    /// the variant of a master playlist, refuses a live playlist (no `#EXT-X-ENDLIST`: it never ends, and FFmpeg would
    /// reload it on the wall clock), an encrypted one, one over `HLSPlaylist.maxBytes` or `maxSegments`, and one that
    /// names any URL the nested policy refuses; then FFmpeg's `hls` demuxer opens the media playlist with every
    /// request through `NestedOpenPolicy` (its `io_open`), and no persistent or parallel connections, so that each
    /// request is one FFmpeg asks vplay for. The media playlist is requested twice (by vplay, then by FFmpeg).
    static func openHLS(
        playlist reader: UnsafeMutablePointer<AVIOContext>, url: String, location: String, remote: Bool, ioTimeout: Duration,
        deadline: LoadDeadline, interrupt: AVIOInterruptCB, gate: URLGate, redirects: MediaRedirectResolver?,
        proxy: ProxySettings, streaming: StreamingOptions
    ) throws(MediaError) -> Opened {
        let text = try readPlaylist(reader, location: location, deadline: deadline)
        var mediaURL = url
        var media = text
        var variant: String?
        let policy = NestedOpenPolicy(playlist: url, remote: remote, gate: gate, proxy: proxy, redirects: redirects,
                                      ioTimeout: ioTimeout, deadline: deadline, maxOpens: HLSPlaylist.maxSegments + hlsExtraOpens)
        var callback = interrupt
        if HLSPlaylist.isMaster(text) {
            let variants = HLSPlaylist.variants(text, base: url)
            guard !variants.isEmpty else { throw .notMedia(location: location, message: "an HLS master playlist without a variant URI") }
            guard variants.count <= HLSPlaylist.maxVariants else {
                throw .formatNotAllowed(location: location, format: "hls (\(variants.count) variants, more than \(HLSPlaylist.maxVariants))")
            }
            let choice = streaming.chooseVariant?(variants) ?? highestBandwidth(variants)
            let chosen = variants[max(0, min(variants.count - 1, choice.index))]
            let target = try policy.check(chosen.url)
            var variantReader: UnsafeMutablePointer<AVIOContext>? = nil
            let status = policy.openChecked(target, into: &variantReader, interrupt: &callback, inherited: nil)
            if let refusal = policy.refusal { throw refusal }
            guard status >= 0, let opened = variantReader else {
                if deadline.expired { throw .loadTimedOut(location: location, limit: deadline.limit) }
                switch status {
                case FFmpegCode.httpNotFound, FFmpegCode.httpForbidden, FFmpegCode.httpOther4xx, FFmpegCode.posix(ENOENT):
                    throw .notFound(location: chosen.url, message: FFmpegCode.message(status))
                default: throw .unreachable(location: chosen.url, message: FFmpegCode.message(status))
                }
            }
            defer { var open: UnsafeMutablePointer<AVIOContext>? = opened; avio_closep(&open) }
            media = try readPlaylist(opened, location: chosen.url, deadline: deadline)
            guard !HLSPlaylist.isMaster(media) else {
                throw .notMedia(location: chosen.url, message: "an HLS variant playlist that is itself a master playlist")
            }
            mediaURL = target
            variant = "variant \(choice.index + 1) of \(variants.count): \(choice.reason)"
        }
        guard HLSPlaylist.isEnded(media) else {
            throw .formatNotAllowed(location: location, format: "hls live playlist (no #EXT-X-ENDLIST; an ad must end)")
        }
        if let method = HLSPlaylist.encryption(media) {
            throw .formatNotAllowed(location: location, format: "hls encrypted with \(method) (clear segments only)")
        }
        let segments = HLSPlaylist.segmentCount(media)
        guard segments > 0 else { throw .notMedia(location: location, message: "an HLS playlist without a segment") }
        guard segments <= HLSPlaylist.maxSegments else {
            throw .formatNotAllowed(location: location, format: "hls (\(segments) segments, more than \(HLSPlaylist.maxSegments))")
        }
        if let problem = HLSPlaylist.durationProblem(media) {
            throw .notMedia(location: location, message: "an HLS playlist whose \(problem)")
        }
        // Every URL the playlist names is checked before anything is requested (and again as FFmpeg asks for it).
        for uri in HLSPlaylist.uris(media, base: mediaURL) { _ = try policy.check(uri) }

        return try openHLSDemuxer(media: mediaURL, location: location, remote: remote, policy: policy, interrupt: interrupt,
                                  deadline: deadline, variant: variant, kind: "hls")
    }

    /// Opens `media` (an HLS media or master playlist, checked) with FFmpeg's `hls` demuxer, every request FFmpeg makes
    /// going through `policy` (its `io_open`), no persistent or parallel connections (so that each request is one
    /// FFmpeg asks vplay for), the protocols of `remote` media and the formats of `hlsFormats`. `kind` names the
    /// MediaFile's format in errors (`hls`, `dash`).
    static func openHLSDemuxer(
        media: String, location: String, remote: Bool, policy: NestedOpenPolicy, interrupt: AVIOInterruptCB,
        deadline: LoadDeadline, variant: String?, kind: String
    ) throws(MediaError) -> Opened {
        guard let allocated = avformat_alloc_context() else { fatalError("avformat_alloc_context: out of memory") }
        allocated.pointee.interrupt_callback = interrupt
        allocated.pointee.opaque = Unmanaged.passUnretained(policy).toOpaque()
        allocated.pointee.io_open = NestedOpenPolicy.ioOpen
        allocated.pointee.io_close2 = NestedOpenPolicy.ioClose
        let protocols = remote ? remoteProtocols + ",httpproxy" : localProtocols
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", protocols, 0)
        av_dict_set(&options, "format_whitelist", hlsFormats, 0)
        // One request per `io_open` (a persistent connection would send the next segment's request without it).
        av_dict_set(&options, "http_persistent", "0", 0)
        av_dict_set(&options, "http_multiple", "0", 0)
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let status = avformat_open_input(&context, media, av_find_input_format("hls"), &options)
        av_dict_free(&options)
        if let refusal = policy.refusal {
            avformat_close_input(&context)
            throw refusal
        }
        guard status >= 0, let context else {
            if deadline.expired { throw .loadTimedOut(location: location, limit: deadline.limit) }
            if let failure = policy.takeFailure() { throw failure }
            throw .unreadableContainer(location: location, format: kind, message: FFmpegCode.message(status))
        }
        let duration = context.pointee.duration
        guard duration != FFmpegCode.noTimestamp, duration > 0 else {
            // The playlist changed between vplay's request and FFmpeg's into one that does not end.
            var open: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&open)
            throw .formatNotAllowed(location: location, format: "\(kind) live playlist (no #EXT-X-ENDLIST; an ad must end)")
        }
        return Opened(context: context, io: nil, throttled: nil, hls: (policy, variant), kind: kind == "hls" ? nil : kind)
    }

    /// With no chooser: the highest `BANDWIDTH` (the first of equals), as with no `--bandwidth`.
    static func highestBandwidth(_ variants: [StreamVariant]) -> VariantChoice {
        let best = variants.indices.max { (variants[$0].bandwidth ?? 0, -$0) < (variants[$1].bandwidth ?? 0, -$1) }!
        return VariantChoice(index: best, reason: "highest BANDWIDTH")
    }

    /// The whole playlist `reader` holds, as text; refused over `HLSPlaylist.maxBytes` or when it is not a playlist.
    static func readPlaylist(_ reader: UnsafeMutablePointer<AVIOContext>, location: String, deadline: LoadDeadline) throws(MediaError) -> String {
        let text = try readManifest(reader, location: location, deadline: deadline, kind: "hls")
        guard HLSPlaylist.isPlaylist(text) else { throw .notMedia(location: location, message: "not an HLS playlist (no #EXTM3U)") }
        return text
    }

    /// The whole manifest (an HLS playlist, a DASH MPD) `reader` holds, as text; refused over `HLSPlaylist.maxBytes`.
    static func readManifest(_ reader: UnsafeMutablePointer<AVIOContext>, location: String, deadline: LoadDeadline,
                             kind: String) throws(MediaError) -> String {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= HLSPlaylist.maxBytes {
            let count = chunk.withUnsafeMutableBufferPointer { avio_read(reader, $0.baseAddress, Int32($0.count)) }
            if count <= 0 {
                if deadline.expired { throw .loadTimedOut(location: location, limit: deadline.limit) }
                if count == 0 || count == FFmpegCode.endOfFile { break }
                throw .readFailed(location: location, message: FFmpegCode.message(count))
            }
            data.append(contentsOf: chunk[..<Int(count)])
        }
        guard data.count <= HLSPlaylist.maxBytes else {
            throw .formatNotAllowed(location: location, format: "\(kind) (a \(kind == "hls" ? "playlist" : "manifest") over \(HLSPlaylist.maxBytes / 1024) KiB)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
