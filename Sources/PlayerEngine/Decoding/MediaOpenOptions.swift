import Networking

/// How an `FFmpegMediaSource` opens and decodes: threads, timeouts, URL checks, proxy, timeline measurement, network
/// simulation and streaming.
public struct MediaOpenOptions: Sendable {
    /// Decoder threads per stream; 0 = one per core, chosen by FFmpeg (the `ffmpeg` CLI's default, `-threads auto`).
    public var decoderThreads: Int
    /// How long one network connect or read may block before failing (FFmpeg's `rw_timeout`), and, once loaded, how
    /// long reading one packet may take in all, however the bytes trickle in (`MediaError.readTimedOut`, VAST 402).
    /// 10 s: longer than IMA's 8 s media load timeout, so a slow CDN is reported by the player's own deadline first,
    /// and far longer than any packet of an ad takes on a working connection.
    public var ioTimeout: Duration
    /// A stream whose data ends short of its duration by more than this is a truncated file. Half a second is more
    /// than any frame or audio packet of an ad (≤ 0.1 s). Containers with a sample index (MP4) are checked exactly
    /// (every indexed sample must be read); this tolerance is for those without one (Matroska/WebM).
    public var truncationTolerance: Duration
    /// How long loading may take in all (connect, probe, container header, stream parameters) before it fails with
    /// `MediaError.loadTimedOut` (VAST 402). 8 s: IMA's `loadVideoTimeout` default. Unlike `ioTimeout` this also
    /// stops a server that trickles bytes just fast enough never to block a single read for long.
    public var loadTimeout: Duration
    /// Whether to open the decoders. `false` is for a demux-only pass (`nextPacket()`, `vplay probe --demux`): a
    /// decoder's threads and buffers cost memory such a pass never uses. Whether a decoder exists is still checked
    /// (`unsupportedCodec`), not whether it opens (`decoderFailed`); `nextFrame()` then yields no frame.
    public var openDecoders: Bool
    /// Checks an http(s) media URL before FFmpeg requests it (`MediaError.cannotRequest`, VAST 401).
    public var urlGate: URLGate = .open
    /// Follows a remote media URL's redirects, each target checked by the same gate (a `file:` target is
    /// `schemeNotAllowed`, 403; a refused one `cannotRequest`, 401); FFmpeg is then told to follow none. nil lets
    /// FFmpeg follow redirects itself, unchecked (unit tests of the decoder only).
    public var redirects: MediaRedirectResolver?
    /// The proxy remote media is requested through (`ProxySettings.endpoint(for:)`), as tags and beacons are.
    public var proxy: ProxySettings = .direct
    /// Whether a local file's presentation timeline is measured at open by a demux pass over every packet (a second
    /// opening of the file, read to its end, then closed): what quartiles are timed on, whatever the header says.
    /// Remote media is requested once and keeps the container index's stream timings (`PresentationTimeline.Measure`).
    /// `false` is for passes that time nothing (`vplay probe --demux`).
    public var measureTimeline: Bool
    /// Times the timeline pass (`PresentationTimeline.passTime`, which `vplay probe` reports) with a stopwatch started
    /// when the pass starts, on the clock its caller was given; nil: the pass is not timed (a session's outputs stay
    /// the same from run to run, and nothing here reads a clock of its own).
    public var passStopwatch: (@Sendable () -> @Sendable () -> Duration)?
    /// The timeline an earlier open of the same file measured (a replay's reopen, a fleet session that decodes for
    /// itself): used as it is, so the file is not read through once more for every open.
    public var knownTimeline: PresentationTimeline?
    /// Reads through a simulated network (`ThrottledReader`, `--network` in real time). The timeline pass, when
    /// there is one, reads unthrottled.
    public var throttle: MediaThrottle?
    /// Also map where the packets' bytes are during the timeline pass (a local file; `FFmpegMediaSource.deliveryMap`),
    /// for a simulated network, so the file is not read a third time.
    public var mapDelivery = false
    /// Measure the creative in the decode pass (`CreativeReport`: loudness, true peak, black, frozen and silent
    /// leaders, interlaced frames), frame by frame as each is decoded; costs no second decode.
    public var analyzeCreative = false
    /// How an HLS playlist is opened (the MediaFile is one, or may be); nil: an HLS playlist is refused (403).
    public var streaming: StreamingOptions?

    /// Options with the given decoding and timeout settings; the URL gate is open, no proxy, no throttle, no streaming.
    public init(
        decoderThreads: Int = 0, ioTimeout: Duration = .seconds(10), truncationTolerance: Duration = .milliseconds(500),
        loadTimeout: Duration = .seconds(8), openDecoders: Bool = true, measureTimeline: Bool = true
    ) {
        self.openDecoders = openDecoders
        self.measureTimeline = measureTimeline
        self.decoderThreads = decoderThreads
        self.ioTimeout = ioTimeout
        self.truncationTolerance = truncationTolerance
        self.loadTimeout = loadTimeout
    }
}
