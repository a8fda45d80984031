import PlayerEngine
import VAST

extension MediaError {
    /// The VAST 3/4 error code for `[ERRORCODE]`: 401 file not found, 402 timeout of the media file URI,
    /// 403 no supported media, 405 cannot play.
    public var vastCode: VASTErrorCode {
        switch self {
        case .notFound, .unreachable, .cannotRequest: .mediaFileNotFound
        case .loadTimedOut, .readTimedOut, .networkTimedOut: .mediaFileTimeout
        case .schemeNotAllowed, .formatNotAllowed, .unsupportedCodec: .noSupportedMediaFile
        case .notMedia, .unreadableContainer, .decoderFailed, .truncated, .durationMismatch, .corruptStream, .readFailed:
            .mediaFileDisplay
        }
    }
}
