import CFFmpeg
import Foundation

/// Owns one opened `AVFormatContext` (a demuxer on a file or URL); closed in `deinit`.
/// Streams are read through it by index, so no `AVStream` pointer outlives it.
final class FormatContext {
    private(set) var pointer: UnsafeMutablePointer<AVFormatContext>
    let location: String

    /// Protocols FFmpeg may use: local files and HTTP(S) (with what HTTPS and HLS-less HTTP need underneath).
    /// Anything else (`concat:`, `subfile:`, `pipe:`, `data:`, `ftp:`, …) is refused, so a tag cannot make FFmpeg
    /// read an arbitrary local file or another protocol through a crafted media URL.
    static let protocolWhitelist = "file,http,https,tcp,tls,crypto"

    /// Opens `location` (a path, `file:` URL or http(s) URL) and reads its stream parameters.
    /// - Parameter ioTimeout: how long one network read or connect may block before it fails.
    init(location: String, ioTimeout: Duration) throws(MediaError) {
        self.location = location
        let target = try Self.openableTarget(location)
        MediaLog.configureOnce()

        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", Self.protocolWhitelist, 0)
        let timeoutMicros = max(1, Int64(ioTimeout.seconds * 1_000_000))
        av_dict_set(&options, "rw_timeout", String(timeoutMicros), 0)
        av_dict_set(&options, "user_agent", "vplay/0.1 (headless ad player)", 0)
        defer { av_dict_free(&options) }

        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        let status = avformat_open_input(&context, target, nil, &options)
        guard status >= 0, let context else {
            throw Self.classifyOpenFailure(status, location: location, target: target)
        }
        pointer = context

        let infoStatus = avformat_find_stream_info(context, nil)
        if infoStatus < 0 {
            // `pointer` is set, so deinit closes it.
            throw MediaError.unreadableContainer(
                location: location, format: formatName, message: FFmpegCode.message(infoStatus))
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    var formatName: String {
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

    /// Whether the underlying reader has reached the end of its data (`avio_feof`).
    var atEndOfData: Bool {
        guard let io = pointer.pointee.pb else { return true }
        return avio_feof(io) != 0
    }

    /// The size of the input in bytes when the reader knows it.
    var byteSize: Int64? {
        guard let io = pointer.pointee.pb else { return nil }
        let size = avio_size(io)
        return size >= 0 ? size : nil
    }

    enum ReadResult { case packet, endOfFile, failed(Int32) }

    /// Reads the next packet into `packet` (which the caller unreferences after use).
    func read(into packet: Packet) -> ReadResult {
        let status = av_read_frame(pointer, packet.pointer)
        if status >= 0 { return .packet }
        if status == FFmpegCode.endOfFile { return .endOfFile }
        return .failed(status)
    }

    // MARK: - Opening

    /// Checks the scheme and turns `file:` URLs into paths. Only local paths, `file:`, `http:` and `https:`.
    static func openableTarget(_ location: String) throws(MediaError) -> String {
        if let colon = location.firstIndex(of: ":"), location[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           location.distance(from: location.startIndex, to: colon) > 1 {
            let scheme = location[..<colon].lowercased()
            switch scheme {
            case "http", "https": return location
            case "file":
                guard let url = URL(string: location), url.isFileURL else { throw .schemeNotAllowed(location: location) }
                return url.path
            default: throw .schemeNotAllowed(location: location)
            }
        }
        return location
    }

    private static func classifyOpenFailure(_ status: Int32, location: String, target: String) -> MediaError {
        let message = FFmpegCode.message(status)
        switch status {
        case FFmpegCode.posix(ENOENT), FFmpegCode.posix(ENOTDIR), FFmpegCode.posix(EISDIR),
             FFmpegCode.httpNotFound, FFmpegCode.httpForbidden, FFmpegCode.httpUnauthorized, FFmpegCode.httpOther4xx,
             FFmpegCode.httpBadRequest:
            return .notFound(location: location, message: message)
        case FFmpegCode.protocolNotFound:
            return .schemeNotAllowed(location: location)
        case FFmpegCode.httpServerError, FFmpegCode.posix(ECONNREFUSED), FFmpegCode.posix(ETIMEDOUT),
             FFmpegCode.posix(EHOSTUNREACH), FFmpegCode.posix(ENETUNREACH), FFmpegCode.posix(ECONNRESET),
             FFmpegCode.posix(EIO), FFmpegCode.exit:
            return .unreachable(location: location, message: message)
        case FFmpegCode.invalidData, FFmpegCode.endOfFile:
            if let format = recognisedFormat(target) {
                if status == FFmpegCode.endOfFile {
                    return .truncated(location: location, detail: "the file ends inside its \(format) header")
                }
                return .unreadableContainer(location: location, format: format, message: message)
            }
            return .notMedia(location: location, message: message)
        default:
            if status == FFmpegCode.posix(EACCES) { return .notFound(location: location, message: message) }
            return .notMedia(location: location, message: message)
        }
    }

    /// Probes the first bytes of an input that failed to open: a container whose signature is recognised with
    /// confidence (score ≥ 50 of 100, FFmpeg's `AVPROBE_SCORE_MAX / 2`) but whose header could not be read is a
    /// damaged file, not "not media".
    private static func recognisedFormat(_ target: String) -> String? {
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", protocolWhitelist, 0)
        defer { av_dict_free(&options) }
        var io: UnsafeMutablePointer<AVIOContext>? = nil
        guard avio_open2(&io, target, AVIO_FLAG_READ, nil, &options) >= 0, let io else { return nil }
        defer { var closing: UnsafeMutablePointer<AVIOContext>? = io; avio_closep(&closing) }
        var format: UnsafePointer<AVInputFormat>? = nil
        let score = av_probe_input_buffer2(io, &format, target, nil, 0, 0)
        guard score >= 50, let format, let name = format.pointee.name else { return nil }
        return String(cString: name)
    }
}
