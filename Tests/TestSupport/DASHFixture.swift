import Foundation

/// DASH media made at test time from the repository's clip with `ffmpeg -f dash` (issue 23): `manifest.mpd`, one
/// static period of three representations with `SegmentTemplate`s and `SegmentTimeline`s, fMP4 segments of 2 s:
/// video `0` (the clip's own H.264, remuxed: 640×360, about 180 kbps), video `1` (re-encoded at 160×90, 80 kbps) and
/// audio `2` (the clip's AAC). Files `init-stream<ID>.m4s` and `chunk-stream<ID>-<NNNNN>.m4s`, numbered from 1.
/// And `single/manifest.mpd` (`-single_file 1`): the clip's video and audio remuxed, each one file
/// `manifest-stream<ID>.mp4` whose initialization and 2 s segments a `SegmentList` names by byte range.
/// Made once and shared by test processes (`SharedFixture`).
public enum DASHFixture {
    /// The folder holding `manifest.mpd` and its segments.
    /// Made once per process (ffmpeg encodes it: seconds); callers wait off the cooperative pool.
    public static func root() async throws -> String { try await offThePool { try made.get() } }

    /// The segment of representation `id` numbered `number` (from 1), as the manifest names it.
    public static func segment(_ id: Int, _ number: Int) -> String {
        "chunk-stream\(id)-\(String(repeating: "0", count: 5 - String(number).count))\(number).m4s"
    }

    private static let made: Result<String, any Error> = Result {
        try SharedFixture.folder(named: "vplay-dash-fixture-v2", holding: "manifest.mpd") { root in
            let clip = Repo.media("clip-10s-360p.mp4")
            let dash = ["-f", "dash", "-seg_duration", "2", "-adaptation_sets", "id=0,streams=v id=1,streams=a"]
            try run("ffmpeg", ["-v", "error", "-y", "-i", clip, "-map", "0:v", "-map", "0:v", "-map", "0:a",
                               "-c:v:0", "copy", "-c:v:1", "libx264", "-preset", "ultrafast", "-s:v:1", "160x90", "-b:v:1", "80k",
                               "-g", "48", "-c:a", "copy"] + dash + [root.appendingPathComponent("manifest.mpd").path])
            try FileManager.default.createDirectory(at: root.appendingPathComponent("single"), withIntermediateDirectories: true)
            try run("ffmpeg", ["-v", "error", "-y", "-i", clip, "-map", "0:v", "-map", "0:a", "-c", "copy"] + dash
                + ["-single_file", "1", root.appendingPathComponent("single/manifest.mpd").path])
        }
    }
}
