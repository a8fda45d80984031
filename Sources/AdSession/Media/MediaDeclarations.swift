import Findings
import PlayerEngine
import VAST

/// What the opened file shows against what its `<MediaFile>` declares: its size, bitrate, codec and container, each
/// a finding when they disagree (rules `VPLAY-media-*-declared`). Only a progressive file is compared: a streaming
/// manifest's attributes describe a ladder, not the variant played.
enum MediaDeclarations {
    /// The bitrate may be this far off, relatively and absolutely, before it is a finding: an ad server often
    /// declares the video's rate, where the container's also counts the audio and the container itself.
    static let bitrateTolerance = (relative: 0.25, kbps: 150)

    static func findings(_ file: MediaFile, info: MediaInfo) -> [Finding] {
        guard !MediaFileSelector.isStreaming(file) else { return [] }
        return [size(file, info), bitrate(file, info), codec(file, info), container(file, info)].compactMap { $0 }
    }

    static func size(_ file: MediaFile, _ info: MediaInfo) -> Finding? {
        guard let width = file.width, let height = file.height, let video = info.video, let w = video.width, let h = video.height,
              (width, height) != (w, h) else { return nil }
        return Finding(.mediaSizeDeclared, "the MediaFile declares \(width)x\(height); its video is \(w)x\(h)")
    }

    static func bitrate(_ file: MediaFile, _ info: MediaInfo) -> Finding? {
        guard let measured = info.bitRate.map({ ($0 + 500) / 1000 }), measured > 0 else { return nil }
        if let declared = file.bitrate {
            let off = abs(declared - measured)
            guard off > bitrateTolerance.kbps, Double(off) > bitrateTolerance.relative * Double(measured) else { return nil }
            return Finding(.mediaBitrateDeclared, "the MediaFile declares \(declared) kbps; the file averages \(measured) kbps")
        }
        if let low = file.minBitrate, let high = file.maxBitrate,
           measured + bitrateTolerance.kbps < low || measured > high + bitrateTolerance.kbps {
            return Finding(.mediaBitrateDeclared, "the MediaFile declares \(low)–\(high) kbps; the file averages \(measured) kbps")
        }
        return nil
    }

    /// RFC 6381 codec names (`avc1.64001e`, `mp4a.40.2`) against FFmpeg's; each declared codec must be one of the
    /// file's streams. A name vplay does not know is not judged.
    static func codec(_ file: MediaFile, _ info: MediaInfo) -> Finding? {
        guard let declared = file.codec?.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }), !declared.isEmpty else { return nil }
        let have = Set(info.streams.map(\.codec))
        let missing = declared.filter { name in ffmpegName(name).map { !have.contains($0) } ?? false }
        guard !missing.isEmpty else { return nil }
        return Finding(.mediaCodecDeclared, "the MediaFile declares codec \(missing.joined(separator: ", ")); the file's streams are \(info.streams.map(\.codec).joined(separator: ", "))")
    }

    static func ffmpegName(_ rfc6381: String) -> String? {
        switch rfc6381.split(separator: ".").first.map({ $0.lowercased() }) ?? "" {
        case "avc1", "avc3": "h264"
        case "hev1", "hvc1": "hevc"
        case "vp08", "vp8": "vp8"
        case "vp09", "vp9": "vp9"
        case "av01": "av1"
        case "mp4a": "aac"
        case "opus": "opus"
        default: nil
        }
    }

    /// The MIME type against FFmpeg's container: an MP4 family type for an MP4, WebM for Matroska.
    static func container(_ file: MediaFile, _ info: MediaInfo) -> Finding? {
        guard let type = MediaFileSelector.normalizedType(file) else { return nil }
        let isMP4 = info.format.contains("mp4"), isWebM = info.format.contains("webm")
        let mp4Types: Set = ["video/mp4", "video/quicktime", "video/x-m4v", "video/3gpp"]
        guard (mp4Types.contains(type) && isWebM) || (type == "video/webm" && isMP4) else { return nil }
        return Finding(.mediaTypeDeclared, "the MediaFile declares type \(type); the file is \(isMP4 ? "an MP4" : "a WebM") (\(info.format))")
    }
}
