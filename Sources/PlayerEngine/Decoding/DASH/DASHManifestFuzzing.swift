import Foundation
import XMLReading

/// The DASH manifest reader for the fuzz target (`Fuzz/fuzz-mpd`), which cannot reach an internal type: reads `text`
/// as the manifest at `base` and lists every representation's segments, as opening a DASH MediaFile does before any
/// segment is requested. Returns how many segments it found, or the refusal.
@_spi(Fuzzing) public enum DASHManifestFuzzing {
    public static func read(_ text: String, base: String) -> Result<Int, MediaError> {
        do throws(MediaError) {
            let manifest = try DASHManifest(text, base: base, location: base)
            var count = 0
            for representation in manifest.representations {
                let (initialization, segments) = try representation.segments(location: base)
                count += segments.count + (initialization == nil ? 0 : 1)
                precondition(segments.allSatisfy { $0.duration.isFinite && $0.duration >= 0 }, "a segment duration that is no duration")
            }
            _ = manifest.videos
            _ = manifest.audios
            return .success(count)
        } catch {
            return .failure(error)
        }
    }
}
