import Networking
import Primitives
import CFFmpeg
import Foundation

/// Owns one opened `AVFormatContext` (a demuxer on a file or URL) and the reader under it; both closed in `deinit`.
/// Streams are read through it by index, so no `AVStream` pointer outlives it.
///
/// The media is requested once: vplay opens the reader itself, probes its first bytes, and hands the same reader to
/// the demuxer (`pb`). The probe result also classifies a failure (a damaged MP4 is not "not media") without a
/// second request, and FFmpeg's interrupt callback bounds the whole load by `loadTimeout`.
final class FormatContext {
    private(set) var pointer: UnsafeMutablePointer<AVFormatContext>
    /// The reader the demuxer reads through, as custom I/O (so the demuxer does not close it; deinit does): the one
    /// vplay opened, or the throttle over it (`ThrottledReader`).
    let io: UnsafeMutablePointer<AVIOContext>
    /// The reader vplay opened (the same as `io` unless throttled); nil for an HLS playlist, whose readers FFmpeg
    /// opens (through `nested`) and closes.
    private let opened: UnsafeMutablePointer<AVIOContext>?
    /// The policy every URL FFmpeg's `hls` demuxer opens goes through (HLS and DASH only): the context's `opaque`, which
    /// `io_open` reaches, so it lives as long as `pointer` (released after it in `deinit`).
    let nested: NestedOpenPolicy?
    /// Which variant of an HLS master playlist (or representation of a DASH manifest) is played, and why (nil
    /// otherwise).
    let variant: String?
    /// The MediaFile's format when it is not the demuxer's (`dash`: a DASH manifest played through the `hls` demuxer).
    private let kind: String?
    /// A simulated network's throttle over `opened`, when there is one.
    private let throttled: ThrottledReader?
    /// Reads that waited for the throttle's bytes.
    var networkWaits: Int { throttled?.waits ?? 0 }
    /// The target of the interrupt callback FFmpeg holds; it must outlive `pointer` and `io`.
    private let deadline: LoadDeadline
    /// How long reading one packet may take in all once loaded (`MediaOpenOptions.ioTimeout`).
    private let readLimit: Duration
    /// Whether a packet read hit `readLimit` (sticky: FFmpeg reports it as `AVERROR_EXIT`, possibly one call later).
    private var readTimedOut = false
    let location: String
    /// Whether the media is a regular local file: one that can be opened and read twice at no cost to anyone (not
    /// remote media, requested once; not a FIFO or a device, which are refused).
    let isRegularLocalFile: Bool

    /// Protocols FFmpeg may use for a local path or `file:` URL: the file itself and nothing else.
    static let localProtocols = "file"
    /// Protocols FFmpeg may use for http(s) media: HTTP(S) and what HTTPS needs underneath, and no `file`, so
    /// nothing a server sends (a redirect, a playlist, a reference) can make FFmpeg read a local file.
    /// Anything else (`concat:`, `subfile,…:`, `pipe:`, `data:`, `ftp:`, …) is refused by FFmpeg itself.
    static let remoteProtocols = "http,https,tcp,tls"
    /// Containers FFmpeg may demux (its `format_whitelist`): the MP4/MOV/3GP family and Matroska/WebM, the
    /// progressive types a VAST MediaFile names (`video/mp4`, `video/quicktime`, `video/3gpp`, `video/webm`).
    /// Playlists and containers that open further URLs (`hls`, `dash`, `concat`, `image2`, …) are refused.
    static let adFormats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"
    /// A probe at or above this score (FFmpeg's `AVPROBE_SCORE_MAX / 2`) means the container was recognised with
    /// confidence, so a file that fails later is damaged rather than "not media".
    static let confidentScore: Int32 = 50
    static let userAgent = "vplay/\(VPlayVersion.current) (headless ad player)"

    /// Opens `location` (a path, `file:` URL or http(s) URL) and reads its stream parameters.
    /// - Parameters:
    ///   - ioTimeout: how long one network read or connect may block before it fails (`rw_timeout`).
    ///   - loadTimeout: how long the whole load (connect, probe, header, stream parameters) may take.
    ///   - allowedFormats: FFmpeg's `format_whitelist`; tests widen it to show that the protocol list holds alone.
    ///   - urlGate: checks an http(s) URL before it is requested.
    ///   - redirects: follows a remote URL's redirects, each target checked (FFmpeg then follows none); nil lets
    ///     FFmpeg follow them itself (tests of the decoder alone).
    init(location: String, ioTimeout: Duration, loadTimeout: Duration, allowedFormats: String = adFormats,
         urlGate: URLGate = .open, redirects: MediaRedirectResolver? = nil,
         throttle: MediaThrottle? = nil, proxy: ProxySettings = .direct,
         streaming: StreamingOptions? = nil) throws(MediaError) {
        self.location = location
        readLimit = ioTimeout
        let target = try Self.openableTarget(location, gate: urlGate)
        if Self.isRemote(target) {
            isRegularLocalFile = false
        } else {
            isRegularLocalFile = try Self.requireRegularFile(target, location: location)
        }
        MediaLog.configureOnce()
        let deadline = LoadDeadline(limit: loadTimeout)
        deadline.arm()
        let opened = try Self.open(
            target: target, location: location, ioTimeout: ioTimeout, deadline: deadline, allowedFormats: allowedFormats, gate: urlGate,
            redirects: redirects, throttle: throttle, proxy: proxy, streaming: streaming)
        pointer = opened.context
        io = opened.throttled?.context ?? opened.io ?? opened.context.pointee.pb!
        self.opened = opened.io
        throttled = opened.throttled
        nested = opened.hls?.policy
        variant = opened.hls?.variant
        kind = opened.kind
        self.deadline = deadline

        // From here on deinit closes both on a throw.
        let infoStatus = avformat_find_stream_info(pointer, nil)
        // Loaded: from here each packet read is bounded by `ioTimeout` in all (`read(into:)`); `expired` stays set
        // if the load deadline hit.
        deadline.disarm()
        if deadline.expired { throw MediaError.loadTimedOut(location: location, limit: loadTimeout) }
        if let nested {
            // A nested URL refused, or a segment that could not be read, while loading.
            if let refusal = nested.refusal { throw refusal }
            if let failure = nested.takeFailure() { throw failure }
        }
        if infoStatus < 0 {
            throw MediaError.unreadableContainer(
                location: location, format: formatName, message: FFmpegCode.message(infoStatus))
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
        if let opened {
            var reader: UnsafeMutablePointer<AVIOContext>? = opened
            avio_closep(&reader)
        }
        withExtendedLifetime(throttled) {}
        withExtendedLifetime(nested) {}
    }

    var formatName: String {
        if let kind { return kind }
        guard let format = pointer.pointee.iformat, let name = format.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    var streamCount: Int { Int(pointer.pointee.nb_streams) }

    /// The stream at `index`; valid only while this context lives (callers do not keep it).
    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < streamCount, "stream index out of range")
        return pointer.pointee.streams[index]!
    }

    /// Container start time (first presentation time), subtracted from every timestamp.
    var startTime: Duration {
        let start = pointer.pointee.start_time
        guard start != FFmpegCode.noTimestamp else { return .zero }
        return .microseconds(start)
    }

    /// Container duration in `AV_TIME_BASE` units (microseconds), 0 when unknown.
    var durationMicroseconds: Int64 {
        let value = pointer.pointee.duration
        return value == FFmpegCode.noTimestamp || value < 0 ? 0 : value
    }

    /// The duration the header declares (0 included: an MP4 may say so), nil when it gives none.
    var declaredDuration: Duration? {
        let value = pointer.pointee.duration
        return value == FFmpegCode.noTimestamp || value < 0 ? nil : .microseconds(value)
    }

    /// Whether the reader has tried to read past the end of its data (`avio_feof`). An MP4 read completely never
    /// does (the demuxer reads exactly the indexed samples), so at the end of an MP4 this means the data ran out.
    var atEndOfData: Bool { avio_feof(io) != 0 }

    /// The size of the input in bytes when the reader knows it.
    var byteSize: Int64? {
        let size = avio_size(io)
        return size >= 0 ? size : nil
    }

    /// Why the container header looks cut short (an MP4 box that runs past the end of the file), or nil.
    /// For an opened file with no audio or video stream: a header cut early still opens, with no streams.
    func headerTruncation() -> String? {
        Self.isMP4Family(formatName) ? Self.mp4BoxTruncation(io) : nil
    }

    enum ReadResult { case packet, endOfFile, failed(Int32), timedOut(Duration), nestedFailed(MediaError) }

    /// Reads the next packet into `packet` (which the caller unreferences after use). The read may take `ioTimeout`
    /// in all: `rw_timeout` alone stops a server that goes silent, not one that trickles a byte now and then after
    /// the header, which would otherwise stall playback (and, on the virtual clock, the whole run) for as long as it
    /// pleases.
    func read(into packet: Packet) -> ReadResult {
        deadline.arm(for: readLimit)
        let status = av_read_frame(pointer, packet.pointer)
        deadline.disarm()
        // The limit can stop a read-ahead under a packet that is still returned; the reader keeps the error and
        // hands it out on the next call, so the expiry is remembered until then.
        if deadline.expired { readTimedOut = true }
        if let failure = nested?.refusal ?? nested?.takeFailure() {
            // A segment that could not be read: FFmpeg's hls demuxer skips it and reads on, so the data ends here.
            if status >= 0 { packet.unref() }
            return .nestedFailed(failure)
        }
        if status >= 0 { return .packet }
        if readTimedOut { return .timedOut(readLimit) }
        if status == FFmpegCode.endOfFile { return .endOfFile }
        return .failed(status)
    }

    // MARK: - Opening

    /// Checks the scheme, lower-cases it (FFmpeg's protocol names are case-sensitive, URI schemes are not) and turns
    /// `file:` URLs into paths. Only local paths, `file:`, `http:` and `https:`; an http(s) URL must pass `gate`.
    static func openableTarget(_ location: String, gate: URLGate = .open) throws(MediaError) -> String {
        if let colon = location.firstIndex(of: ":"), location[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           location.distance(from: location.startIndex, to: colon) > 1 {
            let scheme = location[..<colon].lowercased()
            switch scheme {
            case "http", "https":
                let target = scheme + location[colon...]
                do { _ = try gate.check(target) } catch { throw .cannotRequest(location: location, reason: error.description) }
                return target
            case "file":
                guard let url = URL(string: scheme + location[colon...]), url.isFileURL else { throw .schemeNotAllowed(location: location) }
                return url.path
            default: throw .schemeNotAllowed(location: location)
            }
        }
        return location
    }

    /// Refuses a local path that is a FIFO, a device or a socket: opening a FIFO blocks until a writer comes (no
    /// timeout or signal reaches a thread inside `open(2)`), and a device can stream for ever. A path that does not
    /// exist is left to FFmpeg's own error (not found). Returns whether `path` is a regular file.
    static func requireRegularFile(_ path: String, location: String) throws(MediaError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return true
        case S_IFDIR: return false  // fails in FFmpeg as "not found" (EISDIR), as before
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw .notMedia(location: location, message: "\(kind); media is read from regular files only")
    }

    /// Whether `target` (as returned by `openableTarget`) is fetched over the network.
    static func isRemote(_ target: String) -> Bool {
        target.hasPrefix("http:") || target.hasPrefix("https:")
    }

    private static func open(
        target: String, location: String, ioTimeout: Duration, deadline: LoadDeadline, allowedFormats: String, gate: URLGate = .open,
        redirects: MediaRedirectResolver?, throttle: MediaThrottle?, proxy: ProxySettings = .direct,
        streaming: StreamingOptions? = nil
    ) throws(MediaError) -> Opened {
        // Through a proxy, an https URL is a CONNECT tunnel: FFmpeg's `httpproxy` protocol.
        let viaProxy = isRemote(target) ? URL(string: target).flatMap { proxy.endpoint(for: $0) } : nil
        let protocols = isRemote(target) ? (viaProxy == nil ? remoteProtocols : remoteProtocols + ",httpproxy") : localProtocols
        var interrupt = deadline.callback
        WhitelistRefusal.reset()
        let failure = Failure(location: location, target: target, protocols: protocols, deadline: deadline)

        var ioOptions: OpaquePointer? = nil
        readerOptions(&ioOptions, remote: isRemote(target), protocols: protocols, ioTimeout: ioTimeout, viaProxy: viaProxy, proxy: proxy,
                      vplayFollowsRedirects: redirects != nil)
        var reader: UnsafeMutablePointer<AVIOContext>? = nil
        let (connected, opened) = try connect(&reader, to: target, options: &ioOptions, interrupt: &interrupt, redirects: redirects, deadline: deadline)
        av_dict_free(&ioOptions)
        guard connected >= 0, let inner = reader else { throw failure.classify(connected) }
        func closing(_ error: MediaError) -> MediaError {
            var open: UnsafeMutablePointer<AVIOContext>? = inner
            avio_closep(&open)
            return error
        }
        // Under a simulated network in real time, everything from here on (probe, header, packets) reads through the
        // throttle.
        let throttled = throttle.map { ThrottledReader(inner: inner, throttle: $0, deadline: deadline) }
        let io: UnsafeMutablePointer<AVIOContext> = throttled?.context ?? inner

        // The probed bytes stay in the reader's buffer, so the demuxer reads them again without a new request.
        var probed: UnsafePointer<AVInputFormat>? = nil
        let score = av_probe_input_buffer2(io, &probed, opened, nil, 0, 0)
        guard score >= 0, let probed, let probedName = probed.pointee.name else {
            throw closing(failure.classify(score < 0 ? score : FFmpegCode.invalidData))
        }
        let format = String(cString: probedName)
        if format == "dash" || format == "hls", streaming != nil, throttle != nil {
            // The throttle is one reader's; FFmpeg opens each segment itself. On the virtual clock the segments'
            // download is simulated (`FFmpegMediaSource.deliveryMap`).
            throw closing(.formatNotAllowed(location: location, format: "\(format) under --network in real time (its segments are not throttled; use the virtual clock)"))
        }
        if format == "dash", let streaming, throttle == nil {
            // A DASH manifest, where the MediaFile says it may be one: read by vplay, its representations' segments
            // played through the `hls` demuxer with every URL checked (`FormatContext+DASH`).
            defer { var open: UnsafeMutablePointer<AVIOContext>? = inner; avio_closep(&open) }
            return try openDASH(
                manifest: inner, url: opened, location: location, remote: isRemote(target), ioTimeout: ioTimeout,
                deadline: deadline, interrupt: interrupt, gate: gate, redirects: redirects, proxy: proxy, streaming: streaming)
        }
        if format == "hls", let streaming, throttle == nil {
            // An HLS playlist, where the MediaFile says it may be one: read by vplay, then demuxed by FFmpeg with every
            // nested URL checked (`FormatContext+HLS`). Through a simulated network's throttle it is refused below.
            defer { var open: UnsafeMutablePointer<AVIOContext>? = inner; avio_closep(&open) }
            return try openHLS(
                playlist: inner, url: opened, location: location, remote: isRemote(target), ioTimeout: ioTimeout,
                deadline: deadline, interrupt: interrupt, gate: gate, redirects: redirects, proxy: proxy, streaming: streaming)
        }

        guard let allocated = avformat_alloc_context() else { fatalError("avformat_alloc_context: out of memory") }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.interrupt_callback = interrupt
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", protocols, 0)
        av_dict_set(&options, "format_whitelist", allowedFormats, 0)
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure FFmpeg frees the context (not the custom reader, which `closing` closes).
        let status = avformat_open_input(&context, opened, probed, &options)
        av_dict_free(&options)
        guard status >= 0, let context else {
            throw closing(failure.classifyHeader(status, io: io, format: format, score: score, allowedFormats: allowedFormats))
        }
        return Opened(context: context, io: inner, throttled: throttled, hls: nil, kind: nil)
    }

    struct Opened {
        var context: UnsafeMutablePointer<AVFormatContext>
        var io: UnsafeMutablePointer<AVIOContext>?
        var throttled: ThrottledReader?
        var hls: (policy: NestedOpenPolicy, variant: String?)?
        /// The MediaFile's format when it is not the demuxer's (`dash`).
        var kind: String?
    }

    /// Turns an FFmpeg status from one of the opening steps into the `MediaError` a player can act on.
    private struct Failure {
        let location: String
        let target: String
        let protocols: String
        let deadline: LoadDeadline

        /// A failure to connect, read or recognise the data.
        func classify(_ status: Int32) -> MediaError {
            if deadline.expired { return .loadTimedOut(location: location, limit: deadline.limit) }
            switch WhitelistRefusal.take() {
            case .protocolRefused: return .schemeNotAllowed(location: location)
            case .certificateRefused: return .unreachable(location: location, message: "TLS handshake failed: \(TLSWords.untrustedCertificate)")
            case .formatRefused, nil: break
            }
            let message = FFmpegCode.message(status)
            switch status {
            case FFmpegCode.posix(ENOENT), FFmpegCode.posix(ENOTDIR), FFmpegCode.posix(EISDIR), FFmpegCode.posix(EACCES),
                 FFmpegCode.httpNotFound, FFmpegCode.httpForbidden, FFmpegCode.httpUnauthorized, FFmpegCode.httpOther4xx,
                 FFmpegCode.httpBadRequest:
                return .notFound(location: location, message: message)
            case FFmpegCode.protocolNotFound:
                return .schemeNotAllowed(location: location)
            case FFmpegCode.posix(EINVAL) where !protocolAllowed:
                // FFmpeg refuses a protocol that is not on `protocol_whitelist` with EINVAL ("not on whitelist"),
                // e.g. `subfile,,start,0,end,0,,:/etc/passwd`, which vplay's own check takes for a path.
                return .schemeNotAllowed(location: location)
            case FFmpegCode.httpServerError, FFmpegCode.posix(ECONNREFUSED), FFmpegCode.posix(ETIMEDOUT),
                 FFmpegCode.posix(EHOSTUNREACH), FFmpegCode.posix(ENETUNREACH), FFmpegCode.posix(ECONNRESET),
                 FFmpegCode.posix(EIO), FFmpegCode.exit:
                return .unreachable(location: location, message: message)
            default:
                return .notMedia(location: location, message: message)
            }
        }

        /// A failure of `avformat_open_input` on data probed as `format` with `score`.
        func classifyHeader(
            _ status: Int32, io: UnsafeMutablePointer<AVIOContext>, format: String, score: Int32, allowedFormats: String
        ) -> MediaError {
            if deadline.expired { return .loadTimedOut(location: location, limit: deadline.limit) }
            let refusal = WhitelistRefusal.take()
            // A protocol refused inside the container (a playlist or a redirect naming a local file).
            if refusal == .protocolRefused { return .schemeNotAllowed(location: location) }
            if refusal == .formatRefused || (status == FFmpegCode.posix(EINVAL) && !FormatContext.formatAllowed(format, in: allowedFormats)) {
                // FFmpeg's `format_whitelist` refused the container (EINVAL, "Format not on whitelist").
                guard score >= FormatContext.confidentScore else {
                    return .notMedia(location: location, message: "not a container vplay plays (at best \(format))")
                }
                return .formatNotAllowed(location: location, format: format)
            }
            guard status == FFmpegCode.invalidData || status == FFmpegCode.endOfFile else { return classify(status) }
            let message = FFmpegCode.message(status)
            guard score >= FormatContext.confidentScore else { return .notMedia(location: location, message: message) }
            if FormatContext.isMP4Family(format), let detail = FormatContext.mp4BoxTruncation(io) {
                return .truncated(location: location, detail: detail)
            }
            if status == FFmpegCode.endOfFile {
                return .truncated(location: location, detail: "the file ends inside its \(format) header")
            }
            return .unreadableContainer(location: location, format: format, message: message)
        }

        /// Whether FFmpeg would open `target` with a protocol on the whitelist (`avio_find_protocol_name`).
        private var protocolAllowed: Bool {
            guard let name = avio_find_protocol_name(target) else { return false }
            return protocols.split(separator: ",").contains(Substring(String(cString: name)))
        }
    }

    /// Whether FFmpeg's demuxer name (e.g. `"mov,mp4,m4a,3gp,3g2,mj2"`) matches the list, as `av_match_list` does.
    static func formatAllowed(_ format: String, in allowed: String) -> Bool {
        !Set(format.split(separator: ",")).isDisjoint(with: allowed.split(separator: ","))
    }

    static func isMP4Family(_ format: String) -> Bool { format.split(separator: ",").contains("mp4") }
}
