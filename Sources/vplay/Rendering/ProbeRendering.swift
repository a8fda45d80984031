import Primitives
import Foundation
import PlayerEngine

/// Text and JSON for `vplay probe`.
enum ProbeRendering {
    static func json(_ info: MediaInfo, pass: MediaPass?) -> JSON {
        let streams = info.streams.map { stream -> JSON in
            var pairs: [(String, JSON)] = [
                ("index", .int(stream.index)), ("type", .string(stream.type.rawValue)), ("codec", .string(stream.codec)),
                ("decodable", .bool(stream.decodable)),
            ]
            if let width = stream.width { pairs.append(("width", .int(width))) }
            if let height = stream.height { pairs.append(("height", .int(height))) }
            if let fps = stream.fps { pairs.append(("fps", .number(fps))) }
            if let rate = stream.sampleRate { pairs.append(("sampleRate", .int(rate))) }
            if let channels = stream.channels { pairs.append(("channels", .int(channels))) }
            if let bitRate = stream.bitRate { pairs.append(("bitRate", .int(bitRate))) }
            if let duration = stream.duration { pairs.append(("duration", .number(duration))) }
            if let counted = pass?.statistics.streams.first(where: { $0.index == stream.index }) {
                pairs.append((pass?.mode == "demux" ? "packets" : "frames", .int(counted.frames)))
                pairs.append(("firstTime", .optional(counted.firstTime)))
                pairs.append(("lastTime", .optional(counted.lastTime)))
                pairs.append(("endTime", .optional(counted.end)))
                pairs.append(("decodeErrors", .int(counted.decodeErrors)))
            }
            return .object(pairs)
        }
        var pairs: [(String, JSON)] = [
            ("location", .string(info.location)), ("duration", .number(info.duration)), ("timeline", SessionJSON.timeline(info, passTime: true)),
            ("format", .string(info.format)),
            ("bitRate", .optional(info.bitRate)), ("size", .optional(info.size.map(Int.init))), ("streams", .array(streams)),
        ]
        if let variant = info.variant { pairs.append(("variant", .string(variant))) }
        if let pass {
            pairs.append((pass.mode, .object([
                ("wallTime", .seconds(pass.wallTime)), ("speed", .number(pass.speed)),
                ("decodeErrors", .int(pass.statistics.decodeErrors)), ("bytes", .int(Int(pass.statistics.bytes))),
            ])))
        }
        return .object(pairs)
    }

    static func text(_ info: MediaInfo, pass: MediaPass?) -> String {
        var lines = [info.location]
        var header = "  format \(info.format), duration \(String(format: "%.3f", info.duration)) s"
        if let bitRate = info.bitRate { header += ", \(bitRate / 1000) kb/s" }
        if let size = info.size { header += ", \(size) bytes" }
        lines.append(header)
        if let variant = info.variant { lines.append("  \(info.format == "dash" ? "DASH" : "HLS") \(variant)") }
        for stream in info.streams {
            var line = "  #\(stream.index) \(stream.type.rawValue) \(stream.codec)"
            if let width = stream.width, let height = stream.height { line += " \(width)x\(height)" }
            if let fps = stream.fps { line += String(format: " %.3f fps", fps) }
            if let rate = stream.sampleRate { line += " \(rate) Hz" }
            if let channels = stream.channels { line += " \(channels) ch" }
            if let bitRate = stream.bitRate { line += " \(bitRate / 1000) kb/s" }
            if !stream.decodable && (stream.type == .video || stream.type == .audio) { line += " (no decoder)" }
            if let counted = pass?.statistics.streams.first(where: { $0.index == stream.index }) {
                let unit = pass?.mode == "demux" ? "packets" : "frames"
                line += " — \(counted.frames) \(unit)"
                if let first = counted.firstTime, let last = counted.lastTime {
                    line += String(format: ", %.3f–%.3f s", first, last)
                }
                if counted.decodeErrors > 0 { line += ", \(counted.decodeErrors) decode errors" }
            }
            lines.append(line)
        }
        if let pass {
            lines.append(String(format: "  %@: %.3f s wall, %.1f× real time", pass.mode, pass.wallTime.seconds, pass.speed))
        }
        return lines.joined(separator: "\n")
    }
}
