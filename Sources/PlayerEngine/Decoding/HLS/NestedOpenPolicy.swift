import Networking
import CFFmpeg
import Foundation

/// Every URL FFmpeg's `hls` demuxer opens (the variant playlist, each segment, an `#EXT-X-MAP` header) goes through
/// this policy: FFmpeg calls `AVFormatContext.io_open`, which vplay sets to `NestedOpenPolicy.ioOpen`, so no nested
/// request is made that vplay has not checked. For a remote playlist: http(s) only, each URL through the `URLGate`
/// (well-formed, allowed port, `--deny-private-networks`), FFmpeg's own redirects off and vplay's checked ones on,
/// the proxy chosen per URL. For a local playlist: files only, inside the playlist's own folder (symbolic links
/// resolved), regular files only. At most `maxOpens` requests in all. Used on the thread that reads the media. For a
/// DASH manifest the playlists vplay wrote for its representations are served from memory (`madePlaylists`) and
/// their segments go through the same checks.
final class NestedOpenPolicy {
    let remote: Bool
    private let gate: URLGate
    private let proxy: ProxySettings
    private let redirects: MediaRedirectResolver?
    /// The local playlist's folder, symbolic links resolved.
    private let folder: String?
    private let ioTimeout: Duration
    private let deadline: LoadDeadline
    let maxOpens: Int
    private(set) var opens = 0
    /// The first nested request refused by the policy (a `file:` segment in a remote playlist…).
    private(set) var refusal: MediaError?
    /// Failures of nested requests not yet reported (a segment that answered 404), oldest first.
    private var failures: [MediaError] = []
    /// Whether a nested request has failed (sticky).
    private var failed = false
    /// The readers opened for FFmpeg and not yet closed, and the bytes the closed ones read: what has been
    /// downloaded so far (`bytesDelivered`), for a simulated network's map of the media.
    private var openReaders: [UnsafeMutablePointer<AVIOContext>] = []
    private var closedBytes: Int64 = 0
    /// Playlists vplay wrote itself (a DASH representation's segments as an HLS media playlist), each served from
    /// memory at exactly this URL when FFmpeg opens it: never requested, never read from disk.
    var madePlaylists: [String: String] = [:]

    init(playlist: String, remote: Bool, gate: URLGate, proxy: ProxySettings, redirects: MediaRedirectResolver?,
         ioTimeout: Duration, deadline: LoadDeadline, maxOpens: Int) {
        self.remote = remote
        self.gate = gate
        self.proxy = proxy
        self.redirects = redirects
        self.ioTimeout = ioTimeout
        self.deadline = deadline
        self.maxOpens = maxOpens
        if remote {
            folder = nil
        } else {
            let directory = URL(fileURLWithPath: playlist).deletingLastPathComponent().path
            folder = realpath(directory, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) }
        }
    }

    /// Bytes read from the network (or disk) by every reader opened for FFmpeg so far, read-ahead included. Valid
    /// while the format context that uses this policy is open.
    var bytesDelivered: Int64 { closedBytes + openReaders.reduce(0) { $0 + $1.pointee.bytes_read } }

    /// The failure of a nested request since the last call, if any.
    func takeFailure() -> MediaError? { failures.isEmpty ? nil : failures.removeFirst() }

    /// What FFmpeg may open for `url` (a URL with its scheme lower-cased, or a local path), or why not.
    func check(_ url: String) throws(MediaError) -> String {
        let scheme = Self.scheme(of: url)
        if remote {
            guard scheme == "http" || scheme == "https" else { throw .schemeNotAllowed(location: url) }
            let target = scheme! + url[url.firstIndex(of: ":")!...]
            do { _ = try gate.check(target) } catch { throw .cannotRequest(location: url, reason: error.description) }
            return target
        }
        var path = url
        if let scheme {
            guard scheme == "file", let parsed = URL(string: url), parsed.isFileURL, (parsed.host ?? "").isEmpty || parsed.host == "localhost" else {
                throw .schemeNotAllowed(location: url)
            }
            path = parsed.path
        }
        guard let folder, let resolved = realpath(path, nil).map({ pointer in defer { free(pointer) }; return String(cString: pointer) }),
              resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw .schemeNotAllowed(location: url)
        }
        guard try FormatContext.requireRegularFile(resolved, location: url) else { throw .notFound(location: url, message: "not a regular file") }
        return resolved
    }

    /// A URI scheme (lower-cased) when `url` starts with one, as FFmpeg reads a protocol name: letters and `+-.`.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url.distance(from: url.startIndex, to: colon) > 1,
              url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." || $0 == "," }) else { return nil }
        return url[..<colon].lowercased()
    }

    /// Opens `target` (checked) for FFmpeg with vplay's options: the protocol whitelist, timeouts, TLS verification,
    /// no FFmpeg redirects, this URL's proxy. Returns FFmpeg's status.
    func openChecked(_ target: String, into reader: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>,
                     interrupt: UnsafePointer<AVIOInterruptCB>?, inherited: OpaquePointer?) -> Int32 {
        var status = open(target, into: reader, interrupt: interrupt, inherited: inherited)
        if status == FFmpegCode.posix(EIO), remote, let redirects, !deadline.expired {
            do {
                if let final = try redirects(target, min(ioTimeout, deadline.remaining == .zero ? ioTimeout : deadline.remaining)) {
                    let checked = try check(final)
                    status = open(checked, into: reader, interrupt: interrupt, inherited: inherited)
                }
            } catch {
                refusal = refusal ?? error
                return FFmpegCode.posix(EPERM)
            }
        }
        return status
    }

    private func open(_ target: String, into reader: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>,
                      interrupt: UnsafePointer<AVIOInterruptCB>?, inherited: OpaquePointer?) -> Int32 {
        var options: OpaquePointer? = nil
        if let inherited { av_dict_copy(&options, inherited, 0) }
        let viaProxy = remote ? URL(string: target).flatMap { proxy.endpoint(for: $0) } : nil
        let protocols = remote ? (viaProxy == nil ? FormatContext.remoteProtocols : FormatContext.remoteProtocols + ",httpproxy")
                               : FormatContext.localProtocols
        FormatContext.readerOptions(&options, remote: remote, protocols: protocols, ioTimeout: ioTimeout, viaProxy: viaProxy, proxy: proxy,
                                    vplayFollowsRedirects: redirects != nil)
        let status = avio_open2(reader, target, AVIO_FLAG_READ, interrupt, &options)
        av_dict_free(&options)
        return status
    }

    /// Checks and opens one nested URL for FFmpeg; notes a refusal or a failure (for the reader to report).
    func ioOpen(_ url: String, into reader: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>, flags: Int32,
                interrupt: UnsafePointer<AVIOInterruptCB>?, options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        opens += 1
        guard opens <= maxOpens else {
            let error = MediaError.formatNotAllowed(location: url, format: "hls (more than \(maxOpens) playlist and segment requests)")
            refusal = refusal ?? error
            return FFmpegCode.posix(EPERM)
        }
        guard flags & AVIO_FLAG_WRITE == 0 else { return FFmpegCode.posix(EPERM) }
        if let text = madePlaylists[url] { return Self.memoryReader(text, into: reader) }
        // After a failed segment the ad's data ends there (FFmpeg would skip to the next one): nothing more is read.
        guard !failed, refusal == nil else { return FFmpegCode.posix(EPERM) }
        let target: String
        do { target = try check(url) } catch {
            refusal = refusal ?? error
            return FFmpegCode.posix(EPERM)
        }
        let status = openChecked(target, into: reader, interrupt: interrupt, inherited: options?.pointee)
        if status >= 0, let opened = reader.pointee { openReaders.append(opened) }
        if status < 0, status != FFmpegCode.exit, !deadline.expired {
            failed = true
            let message = FFmpegCode.message(status)
            switch status {
            case FFmpegCode.httpNotFound, FFmpegCode.httpForbidden, FFmpegCode.httpOther4xx, FFmpegCode.httpUnauthorized,
                 FFmpegCode.httpBadRequest, FFmpegCode.posix(ENOENT):
                failures.append(.notFound(location: url, message: message))
            default:
                failures.append(.unreachable(location: url, message: message))
            }
        }
        return status
    }

    /// A reader over `text` alone. Its bytes are the reader's whole buffer and it has no `opaque`, so FFmpeg's
    /// `avio_close` frees it like any reader (it closes no protocol: there is none).
    static func memoryReader(_ text: String, into reader: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>) -> Int32 {
        let bytes = Array(text.utf8)
        guard let buffer = av_malloc(max(1, bytes.count))?.assumingMemoryBound(to: UInt8.self) else { return FFmpegCode.posix(ENOMEM) }
        bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.update(from: base, count: bytes.count) } }
        guard let context = avio_alloc_context(buffer, Int32(max(1, bytes.count)), 0, nil, endOfData, nil, nil) else {
            av_free(buffer)
            return FFmpegCode.posix(ENOMEM)
        }
        // As if one read had filled the buffer: its end is the data's, and the reader's position is past it.
        context.pointee.buf_end = buffer + bytes.count
        context.pointee.pos = Int64(bytes.count)
        reader.pointee = context
        return 0
    }

    /// The read callback of a memory reader: everything was in its buffer.
    private static let endOfData: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { _, _, _ in
        FFmpegCode.endOfFile
    }

    /// FFmpeg's `io_close2`, routed to the policy: counts the reader's bytes, then closes it as FFmpeg would.
    static let ioClose: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = { context, reader in
        guard let reader else { return 0 }
        if let opaque = context?.pointee.opaque {
            let policy = Unmanaged<NestedOpenPolicy>.fromOpaque(opaque).takeUnretainedValue()
            if let index = policy.openReaders.firstIndex(of: reader) {
                policy.closedBytes += reader.pointee.bytes_read
                policy.openReaders.remove(at: index)
            }
        }
        return avio_close(reader)
    }

    /// FFmpeg's `io_open`, routed to the policy in the format context's `opaque`.
    static let ioOpen: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
        UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { context, reader, url, flags, options in
        guard let context, let reader, let url, let opaque = context.pointee.opaque else { return FFmpegCode.posix(EINVAL) }
        let policy = Unmanaged<NestedOpenPolicy>.fromOpaque(opaque).takeUnretainedValue()
        return withUnsafePointer(to: context.pointee.interrupt_callback) { interrupt in
            policy.ioOpen(String(cString: url), into: reader, flags: flags, interrupt: interrupt, options: options)
        }
    }
}
