/// The frames one play reads from its media source, in presentation order: one at a time, or read ahead into a
/// buffer (a player's buffer, under a measured network), with a media error met while reading held back until
/// playback reaches it, as a real player runs dry. A replay restarts it on the media opened again, the earlier
/// source's counts kept.
struct FrameFeed {
    /// The source frames come from now.
    private(set) var source: any MediaSource
    /// A media error met while reading ahead. Playback goes on to the end of the data already decoded (the last
    /// frame shown plays to its end, boundaries before it fire), and fails there.
    var pendingFailure: MediaError?
    /// Whether the last frame read from the source waited for network bytes.
    private(set) var waited = false
    /// Statistics of sources a replay replaced.
    private var earlier = DecodeStatistics(streams: [])
    /// Frames read ahead of the one due next, from `aheadHead` on.
    private var ahead: [MediaFrame] = []
    private var aheadHead = 0
    /// Whether the source reads through a throttle (only then is it asked, on every frame, whether it waited).
    private let measuring: Bool

    init(source: any MediaSource, measuring: Bool) {
        self.source = source
        self.measuring = measuring
    }

    /// Decode statistics over every source played.
    var statistics: DecodeStatistics { earlier.adding(source.statistics) }

    /// Whether no frame is read ahead: the next one comes from the source itself.
    var isEmpty: Bool { aheadHead >= ahead.count }

    /// The next frame from the source, nil at its end or on an error (then held in `pendingFailure`).
    private mutating func read() -> MediaFrame? {
        let waits = measuring ? source.networkWaits : 0
        defer { if measuring { waited = source.networkWaits > waits } }
        do { return try source.nextFrame() } catch {
            pendingFailure = error
            return nil
        }
    }

    /// The next frame: the first one read ahead, else the source's.
    mutating func next() -> MediaFrame? {
        if aheadHead < ahead.count {
            defer { aheadHead += 1 }
            waited = false
            return ahead[aheadHead]
        }
        ahead.removeAll(keepingCapacity: true)
        aheadHead = 0
        return read()
    }

    /// Reads ahead until the buffer holds media up to `limit` (from `after`), the data ends, or it fails.
    mutating func buffer(through limit: Duration, after: Duration) {
        while pendingFailure == nil, (aheadHead < ahead.count ? ahead.last!.time : after) < limit, let frame = read() { ahead.append(frame) }
    }

    /// Goes on with `source`, the media opened again for a replay: nothing read ahead, no error held.
    mutating func restart(with source: any MediaSource) {
        earlier = earlier.adding(self.source.statistics)
        pendingFailure = nil
        ahead.removeAll()
        aheadHead = 0
        self.source = source
    }
}
