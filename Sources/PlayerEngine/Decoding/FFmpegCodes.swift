import CFFmpeg

/// FFmpeg's `AVERROR(…)` family and other macros that Swift cannot import, defined once (values from `shim.h`).
enum FFmpegCode {
    static let endOfFile = VPLAY_AVERROR_EOF
    static let tryAgain = VPLAY_AVERROR_EAGAIN
    static let invalidData = VPLAY_AVERROR_INVALIDDATA
    static let protocolNotFound = VPLAY_AVERROR_PROTOCOL_NOT_FOUND
    static let exit = VPLAY_AVERROR_EXIT
    static let httpNotFound = VPLAY_AVERROR_HTTP_NOT_FOUND
    static let httpForbidden = VPLAY_AVERROR_HTTP_FORBIDDEN
    static let httpServerError = VPLAY_AVERROR_HTTP_SERVER_ERROR
    static let httpOther4xx = VPLAY_AVERROR_HTTP_OTHER_4XX
    static let httpBadRequest = VPLAY_AVERROR_HTTP_BAD_REQUEST
    static let httpUnauthorized = VPLAY_AVERROR_HTTP_UNAUTHORIZED
    static let noTimestamp = VPLAY_AV_NOPTS_VALUE
    /// `AV_TIME_BASE`: FFmpeg's fixed time unit for container-level values (microseconds).
    static let timeBase = Int64(VPLAY_AV_TIME_BASE)

    /// `AVERROR(errno)`.
    static func posix(_ errno: Int32) -> Int32 { vplay_averror(errno) }

    /// FFmpeg's own text for an error code (`av_strerror`).
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { raw in
            String(cString: vplay_error_string(code, raw.baseAddress, raw.count))
        }
    }
}
