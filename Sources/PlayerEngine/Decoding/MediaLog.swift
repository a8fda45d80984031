import CFFmpeg
import Foundation

/// FFmpeg's own logging. Library code never prints, so FFmpeg is silenced unless `VPLAY_FFMPEG_LOG` names a level
/// (`error`, `warning`, `info`, `debug`) for someone investigating a file.
enum MediaLog {
    private static let configured: Void = {
        let level: Int32
        switch ProcessInfo.processInfo.environment["VPLAY_FFMPEG_LOG"]?.lowercased() {
        case "error": level = AV_LOG_ERROR
        case "warning": level = AV_LOG_WARNING
        case "info": level = AV_LOG_INFO
        case "debug": level = AV_LOG_DEBUG
        default: level = AV_LOG_QUIET
        }
        vplay_set_log_level(level)
        // Notes "not on whitelist" refusals for `FormatContext`.
        WhitelistRefusal.installLogCallback()
    }()

    static func configureOnce() { _ = configured }
}
