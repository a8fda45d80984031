import Primitives

/// Why a media file could not be opened or played. Each case carries FFmpeg's own message where there is one,
/// and maps to the VAST error code a player sends to the ad's Error URLs (`vastCode`, in AdSession).
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist, or the server answered 404/403/410.
    case notFound(location: String, message: String)
    /// The server could not be reached, refused, timed out or failed (network or 5xx).
    case unreachable(location: String, message: String)
    /// The URL cannot be requested (`RequestURL`: a port beyond 65535, no host, …), or `--deny-private-networks`
    /// refused its address or that of a redirect target. Nothing is read from it.
    case cannotRequest(location: String, reason: String)
    /// The URL's scheme is not one vplay lets FFmpeg open (file, http, https only), or FFmpeg was asked to open
    /// another protocol on its behalf (e.g. `subfile,,…:/path`, or a local file from remote media).
    case schemeNotAllowed(location: String)
    /// The data is a container vplay does not play (MP4/MOV/3GP and Matroska/WebM files, and HLS playlists where
    /// the MediaFile is one, are played), e.g. an HLS playlist behind a `video/mp4` MediaFile, a live or encrypted
    /// HLS playlist, or one over its limits. `format` is FFmpeg's name for what it found, or what is wrong with it.
    case formatNotAllowed(location: String, format: String)
    /// Loading (connect, probe, header, stream parameters) took longer than `limit`
    /// (`MediaOpenOptions.loadTimeout`).
    case loadTimedOut(location: String, limit: Duration)
    /// Nothing here is media FFmpeg recognises (empty file, HTML, random bytes).
    case notMedia(location: String, message: String)
    /// The container was recognised but its header cannot be read (e.g. an MP4 cut inside its `moov`).
    case unreadableContainer(location: String, format: String, message: String)
    /// This FFmpeg has no decoder for any audio or video stream, or for the video of a file that has video (so a
    /// video ad is never "played" as sound alone). `codecs` names the undecodable ones.
    case unsupportedCodec(location: String, codecs: [String])
    /// A decoder exists for the codec but refused to open with this stream's parameters.
    case decoderFailed(location: String, codec: String, message: String)
    /// The file ends early: inside its container header, or (cut after a complete header) before the duration the
    /// container announces. `detail` says which, with the timestamps.
    case truncated(location: String, detail: String)
    /// The media holds frames well past the end its container declares (an HLS playlist whose `#EXTINF`s add up to
    /// less than its segments hold): quartiles were computed on a duration that is not the media's. `detail` names both.
    case durationMismatch(location: String, detail: String)
    /// Not one frame of a stream could be decoded.
    case corruptStream(location: String, decodeErrors: Int, message: String)
    /// Reading failed in the middle of the file for another reason.
    case readFailed(location: String, message: String)
    /// After loading, reading one packet took longer than `limit` (`MediaOpenOptions.ioTimeout`): the server
    /// stalled or trickled its bytes mid-file.
    case readTimedOut(location: String, limit: Duration)
    /// Under a simulated network (`--network`): the media was not ready to play within `--media-timeout`, or a stall
    /// outlasted `--stall-timeout`. `message` says which, with the times and bytes.
    case networkTimedOut(location: String, message: String)

    /// A short stable name for logs and JSON (`"truncated"`, `"not-media"`, …).
    public var kind: String {
        switch self {
        case .notFound: "not-found"
        case .unreachable: "unreachable"
        case .cannotRequest: "cannot-request"
        case .schemeNotAllowed: "scheme-not-allowed"
        case .formatNotAllowed: "format-not-allowed"
        case .loadTimedOut: "load-timed-out"
        case .decoderFailed: "decoder-failed"
        case .notMedia: "not-media"
        case .unreadableContainer: "unreadable-container"
        case .unsupportedCodec: "unsupported-codec"
        case .truncated: "truncated"
        case .durationMismatch: "duration-mismatch"
        case .corruptStream: "corrupt-stream"
        case .readFailed: "read-failed"
        case .readTimedOut: "read-timed-out"
        case .networkTimedOut: "network-timed-out"
        }
    }

    public var description: String {
        switch self {
        case let .notFound(location, message): "media not found: \(location) (\(message))"
        case let .unreachable(location, message): "media unreachable: \(location) (\(message))"
        case let .cannotRequest(location, reason): "media not requested: \(location) (\(reason))"
        case let .schemeNotAllowed(location):
            // A `file:` URL is refused where it came from (remote content, a redirect, outside a local manifest's
            // folder), not for its scheme: say so rather than list `file` among the allowed schemes.
            location.lowercased().hasPrefix("file:")
                ? "local file not opened (a file: URL is played only from a local tag or beside a local manifest, never from remote content or a redirect): \(location)"
                : "media URL scheme not allowed (file, http, https only): \(location)"
        case let .formatNotAllowed(location, format):
            "media container not allowed (\(format); MP4/MOV/3GP and Matroska/WebM files and HLS or DASH MediaFiles play): \(location)"
        case let .loadTimedOut(location, limit): "media load timed out after \(limit.seconds) s: \(location)"
        case let .decoderFailed(location, codec, message): "the \(codec) decoder could not be opened (\(message)): \(location)"
        case let .notMedia(location, message): "not a media file: \(location) (\(message))"
        case let .unreadableContainer(location, format, message):
            "\(format) container header unreadable, probably truncated or corrupt: \(location) (\(message))"
        case let .unsupportedCodec(location, codecs):
            "no decodable audio or video stream (codecs: \(codecs.isEmpty ? "none" : codecs.joined(separator: ", "))): \(location)"
        case let .truncated(location, detail): "media truncated: \(detail): \(location)"
        case let .durationMismatch(location, detail): "media longer than its container says: \(detail): \(location)"
        case let .corruptStream(location, errors, message):
            "corrupt stream: no frame could be decoded (\(errors) decode errors, last: \(message)): \(location)"
        case let .readFailed(location, message): "reading media failed: \(location) (\(message))"
        case let .readTimedOut(location, limit):
            "media stalled: reading one packet took longer than \(limit.seconds) s: \(location)"
        case let .networkTimedOut(location, message): "\(message): \(location)"
        }
    }
}
