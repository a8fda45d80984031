import CFFmpeg

/// How a process that decodes media allocates: `apply()` once, first thing in `main`, before any decoding.
public enum MediaMemoryPolicy {
    /// Allocations of at least this size are mapped on their own and unmapped when freed (glibc's `M_MMAP_THRESHOLD`).
    ///
    /// glibc starts at 128 KiB but raises the threshold to the size of each mapped block freed (up to 32 MiB): once a
    /// 4K picture buffer (12 MiB) has been freed, the later ones come from malloc's arenas, which keep freed memory
    /// resident between live blocks. Decoding 4K that way peaked 15 MiB (more than a picture) above the same decode
    /// with the buffers mapped: 1.04–1.06× `ffmpeg -f null`'s RSS. Fixing the threshold at glibc's own starting
    /// value keeps every large block mapped and returned to the system on free, as before the first free; a higher
    /// fixed value (1 MiB was tried) moves the demuxer's and prober's 128 KiB–1 MiB buffers into the arenas and put
    /// 3–5 MiB on every run. Measured by `scripts/bench-decode.sh` (docs/benchmarks.md).
    public static let mapThreshold: Int32 = 128 << 10

    /// Sets the threshold (a no-op without glibc).
    public static func apply() {
        vplay_set_mmap_threshold(mapThreshold)
    }
}
