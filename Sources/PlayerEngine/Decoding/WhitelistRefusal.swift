import CFFmpeg
import Foundation

/// A refusal by one of FFmpeg's whitelists (`protocol_whitelist`, `format_whitelist`) or by its TLS layer on this
/// thread, as FFmpeg's log reported it. FFmpeg itself returns only `AVERROR(EINVAL)`, and a refusal inside a playlist or another nested
/// open surfaces as some other error of the outer step, so the log line is what tells a refusal from bad data.
enum WhitelistRefusal: Equatable {
    case protocolRefused
    case formatRefused
    /// FFmpeg's TLS layer refused the server's certificate ("Peer certificate failed verification", "… does not
    /// match hostname"): it returns only EIO for it.
    case certificateRefused

    private static let key = "vplay.ffmpeg.whitelistRefusal"

    /// Routes FFmpeg's log through a callback that notes refusals for the thread that caused them, then hands every
    /// message to FFmpeg's default callback (which prints it only at the level `MediaLog` set).
    static func installLogCallback() {
        av_log_set_callback { context, level, format, arguments in
            // "Protocol '%s' not on whitelist '%s'!" and "Format not on whitelist '%s'".
            if let format, strstr(format, "not on whitelist") != nil {
                Thread.current.threadDictionary[WhitelistRefusal.key] = strstr(format, "Protocol") != nil ? 1 : 2
            } else if let format, strstr(format, "certificate failed verification") != nil || strstr(format, "does not match hostname") != nil {
                Thread.current.threadDictionary[WhitelistRefusal.key] = 3
            }
            if let arguments { av_log_default_callback(context, level, format, arguments) }
        }
    }

    /// Forgets any refusal noted so far on this thread (before an open).
    static func reset() { _ = take() }

    /// The refusal noted on this thread since the last call, if any; forgets it.
    static func take() -> WhitelistRefusal? {
        let dictionary = Thread.current.threadDictionary
        guard let noted = dictionary[key] as? Int else { return nil }
        dictionary.removeObject(forKey: key)
        return switch noted {
        case 1: .protocolRefused
        case 2: .formatRefused
        default: .certificateRefused
        }
    }
}
