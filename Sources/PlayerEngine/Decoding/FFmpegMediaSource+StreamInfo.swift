import Primitives
import CFFmpeg

extension FFmpegMediaSource {
    // MARK: - Describing streams

    /// FFmpeg's codec name, with the container's four-character code when FFmpeg does not know the codec
    /// (`"none (zzzz)"`), so an error names what the file actually holds.
    static func codecLabel(_ stream: UnsafeMutablePointer<AVStream>) -> String {
        let parameters = stream.pointee.codecpar.pointee
        let name = String(cString: avcodec_get_name(parameters.codec_id))
        let tag = parameters.codec_tag
        guard parameters.codec_id == AV_CODEC_ID_NONE, tag != 0 else { return name }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> ($0 * 8)) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return name }
        return "\(name) (\(String(decoding: bytes, as: UTF8.self)))"
    }

    static func describe(_ stream: UnsafeMutablePointer<AVStream>) -> StreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let type: StreamInfo.Kind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let duration = stream.pointee.duration != FFmpegCode.noTimestamp && stream.pointee.duration > 0
            ? stream.pointee.time_base.duration(ofTicks: stream.pointee.duration).seconds : nil
        return StreamInfo(
            index: Int(stream.pointee.index),
            type: type,
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            decodable: false,
            width: type == .video && parameters.width > 0 ? Int(parameters.width) : nil,
            height: type == .video && parameters.height > 0 ? Int(parameters.height) : nil,
            fps: type == .video ? stream.pointee.avg_frame_rate.doubleValue : nil,
            sampleRate: type == .audio && parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil,
            channels: type == .audio && parameters.ch_layout.nb_channels > 0 ? Int(parameters.ch_layout.nb_channels) : nil,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            duration: duration,
            declaredFrames: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            profile: parameters.profile >= 0 ? avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) } : nil,
            level: parameters.level > 0 ? Int(parameters.level) : nil
        )
    }
}
