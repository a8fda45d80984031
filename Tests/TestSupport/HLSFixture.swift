import Foundation

/// HLS media made at test time from the repository's clip with `ffmpeg -f hls` (issue 23): two variants in their own
/// folders, `hi/` (the clip's own H.264 and AAC, remuxed: 640×360) and `lo/` (re-encoded at 160×90), each a VOD
/// playlist `index.m3u8` of five 2 s MPEG-TS segments `seg0.ts`…`seg4.ts`, and `master.m3u8` naming both
/// (`hi` BANDWIDTH 300000, `lo` BANDWIDTH 120000). Made once, into a folder of the temporary directory named after
/// the clip's size and this layout's version, moved into place whole, and reused by later test processes (so runs
/// leave one such folder, not one each).
public enum HLSFixture {
    /// The folder holding `master.m3u8`, `hi/` and `lo/`.
    /// Made once per process (ffmpeg encodes it: seconds); callers wait off the cooperative pool.
    public static func root() async throws -> String { try await offThePool { try made.get() } }

    /// BANDWIDTH of the variants as the master playlist says, bits per second.
    public static let hiBandwidth = 300_000
    public static let loBandwidth = 120_000

    private static let made: Result<String, any Error> = Result {
        try SharedFixture.folder(named: "vplay-hls-fixture-v1", holding: "master.m3u8") { root in
            for variant in ["hi", "lo"] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(variant), withIntermediateDirectories: true)
            }
            let clip = Repo.media("clip-10s-360p.mp4")
            let hls = ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
            try run("ffmpeg", ["-v", "error", "-y", "-i", clip, "-c", "copy"] + hls
                + ["-hls_segment_filename", root.appendingPathComponent("hi/seg%d.ts").path, root.appendingPathComponent("hi/index.m3u8").path])
            try run("ffmpeg", ["-v", "error", "-y", "-i", clip, "-vf", "scale=160:90", "-c:v", "libx264", "-preset", "ultrafast",
                               "-g", "48", "-b:v", "80k", "-c:a", "copy"] + hls
                + ["-hls_segment_filename", root.appendingPathComponent("lo/seg%d.ts").path, root.appendingPathComponent("lo/index.m3u8").path])
            let master = """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-STREAM-INF:BANDWIDTH=\(hiBandwidth),RESOLUTION=640x360
                hi/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=\(loBandwidth),RESOLUTION=160x90
                lo/index.m3u8

                """
            try Data(master.utf8).write(to: root.appendingPathComponent("master.m3u8"))
        }
    }
}

/// A folder of media made at test time, once: into a folder of the temporary directory named after the clip's size
/// and the layout's version, moved into place whole, and reused by later test processes (so runs leave one such
/// folder, not one each).
public enum SharedFixture {
    /// The folder `name` (with the clip's size) in which `file` exists, made by `make` in a fresh folder first if
    /// it is not there yet.
    public static func folder(named name: String, holding file: String, make: (URL) throws -> Void) throws -> String {
        let clip = Repo.media("clip-10s-360p.mp4")
        let size = (try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int) ?? 0
        let final = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(size)")
        if FileManager.default.fileExists(atPath: final.appendingPathComponent(file).path) { return final.path }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try make(root)
        // Another test process may have moved its own copy into place meanwhile: then that one is used.
        if (try? FileManager.default.moveItem(at: root, to: final)) == nil { try? FileManager.default.removeItem(at: root) }
        return final.path
    }
}
