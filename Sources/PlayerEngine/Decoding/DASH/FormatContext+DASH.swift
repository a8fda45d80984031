import Networking
import CFFmpeg
import Foundation

extension FormatContext {
    /// Opens a DASH manifest whose first bytes `reader` holds (the caller closes it).
    ///
    /// Not through FFmpeg's `dash` demuxer: in FFmpeg 5.1 it opens its initialization and media segments with
    /// `ffio_open_whitelist`, never through `AVFormatContext.io_open` (measured on 5.1.9: only the manifest reaches
    /// `io_open`), so vplay could not check, TLS-verify, proxy or follow the redirects of a single segment request, nor
    /// notice a segment that fails; and it opens every representation at once. Instead vplay reads the manifest
    /// (`DASHManifest`: one period, not live, not encrypted), chooses the video representation as an HLS variant is
    /// chosen (`StreamingOptions.chooseVariant`, else the highest bandwidth) and the audio representation of highest
    /// bandwidth in the main (else the first) audio AdaptationSet, writes each as an HLS media playlist of its segments (`#EXT-X-MAP` for the initialization segment,
    /// every URL checked by the nested policy first), and FFmpeg's `hls` demuxer plays those from memory with every
    /// segment request through `NestedOpenPolicy`, as for HLS. The manifest is requested once; no other
    /// representation's segment is requested.
    static func openDASH(
        manifest reader: UnsafeMutablePointer<AVIOContext>, url: String, location: String, remote: Bool, ioTimeout: Duration,
        deadline: LoadDeadline, interrupt: AVIOInterruptCB, gate: URLGate, redirects: MediaRedirectResolver?,
        proxy: ProxySettings, streaming: StreamingOptions
    ) throws(MediaError) -> Opened {
        let text = try readManifest(reader, location: location, deadline: deadline, kind: "dash")
        let manifest = try DASHManifest(text, base: url, location: location)
        let policy = NestedOpenPolicy(playlist: url, remote: remote, gate: gate, proxy: proxy, redirects: redirects,
                                      ioTimeout: ioTimeout, deadline: deadline, maxOpens: HLSPlaylist.maxSegments + hlsExtraOpens)
        let videos = manifest.videos
        let variants = videos.map {
            StreamVariant(url: $0.addressing.base, bandwidth: $0.bandwidth, width: $0.width, height: $0.height)
        }
        let choice = streaming.chooseVariant?(variants) ?? highestBandwidth(variants)
        let index = max(0, min(videos.count - 1, choice.index))
        var chosen = [videos[index]]
        var note = "representation \(index + 1) of \(videos.count) (id \(videos[index].id)): \(choice.reason)"
        let audios = manifest.audios
        if let audio = audios.indices.max(by: { (audios[$0].bandwidth ?? 0, -$0) < (audios[$1].bandwidth ?? 0, -$1) }) {
            chosen.append(audios[audio])
            note += "; audio representation \(audio + 1) of \(audios.count) (id \(audios[audio].id)), the highest bandwidth of its set"
        }
        // Beside the manifest, as FFmpeg resolves names (it drops a URL's fragment), and never requested: the policy
        // serves these from memory.
        var playlists: [String: String] = [:]
        let names = chosen.indices.map { HLSPlaylist.resolve(".vplay-dash-\($0).m3u8", against: url) }
        for (name, representation) in zip(names, chosen) {
            playlists[name] = try mediaPlaylist(try representation.segments(location: location), policy: policy)
        }
        var top = names[0]
        if names.count > 1 {
            top = HLSPlaylist.resolve(".vplay-dash.m3u8", against: url)
            playlists[top] = """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,URI="\(names[1])"
                #EXT-X-STREAM-INF:BANDWIDTH=\(max(1, chosen[0].bandwidth ?? 1)),AUDIO="audio"
                \(names[0])

                """
        }
        policy.madePlaylists = playlists
        return try openHLSDemuxer(media: top, location: location, remote: remote, policy: policy, interrupt: interrupt,
                                  deadline: deadline, variant: note, kind: "dash")
    }

    /// A representation's segments as an HLS media playlist, each URL as the policy allows FFmpeg to open it.
    static func mediaPlaylist(_ representation: (initialization: DASHManifest.Segment?, segments: [DASHManifest.Segment]),
                              policy: NestedOpenPolicy) throws(MediaError) -> String {
        func checked(_ uri: String) throws(MediaError) -> String {
            let target = try policy.check(uri)
            // A URL that would end a playlist line or attribute is refused, not escaped.
            guard !target.unicodeScalars.contains(where: { $0 == "\"" || $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .schemeNotAllowed(location: uri)
            }
            return target
        }
        let longest = representation.segments.map(\.duration).max() ?? 1
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(Int(longest.rounded(.up)))", "#EXT-X-PLAYLIST-TYPE:VOD"]
        // A byte range as HLS writes one: LENGTH@OFFSET.
        func bytes(_ range: ClosedRange<Int64>) -> String { "\(range.upperBound - range.lowerBound + 1)@\(range.lowerBound)" }
        if let initialization = representation.initialization {
            lines.append("#EXT-X-MAP:URI=\"\(try checked(initialization.url))\"" + (initialization.range.map { ",BYTERANGE=\"\(bytes($0))\"" } ?? ""))
        }
        for segment in representation.segments {
            lines.append("#EXTINF:\(extinf(segment.duration)),")
            if let range = segment.range { lines.append("#EXT-X-BYTERANGE:\(bytes(range))") }
            lines.append(try checked(segment.url))
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds as an `#EXTINF` value FFmpeg reads back to the same microsecond: it truncates `atof(value) * 10⁶`, so
    /// the rounded microseconds are written with a trailing 4 (1.927256 could read as 1.927255999…).
    static func extinf(_ seconds: Double) -> String {
        let micros = Int64((seconds * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)4"
    }
}
