import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

extension SessionEnvironment {
    /// The real world: HTTP for tags and beacons (none for a dry run), FFmpeg on its own threads, the machine's
    /// monotonic and wall clocks. The only place vplay builds an HTTP transport, an FFmpeg source, a
    /// `ContinuousClock` or reads `Date()`.
    /// - Parameter pooledBeacons: beacons through `PooledBeaconTransport` (a fleet's: keep-alive connections per
    ///   host, plain HTTP written straight to the channel; TLS and proxied URLs through the full transport; the
    ///   answers' header fields not kept, as a fleet only counts them), not the full transport alone (a single
    ///   session's, which records every hop for the HAR).
    public static func live(_ configuration: SessionConfiguration, pooledBeacons: Bool = false) -> SessionEnvironment {
        let clock = ContinuousClock()
        let gate = URLGate(policy: configuration.addressPolicy, resolve: AddressPolicy.systemResolve)
        // The collector's exact origin is trusted for the beacons sent to it, and for nothing the tag names.
        var beaconPolicy = configuration.addressPolicy
        if let origin = configuration.collector.flatMap(AddressPolicy.Origin.init) { beaconPolicy.trustedOrigins.insert(origin) }
        let beaconGate = beaconPolicy == configuration.addressPolicy ? gate : URLGate(policy: beaconPolicy, resolve: AddressPolicy.systemResolve)
        let tags = HTTPTagFetcher(userAgent: configuration.userAgent, maxBytes: configuration.resolver.parserLimits.maxBytes, gate: gate,
                                  proxy: configuration.proxy)
        // Media redirects are followed with the tag fetcher's client (same gate, same fail-at-once connections).
        let redirects = MediaRedirects(client: tags.client, userAgent: configuration.userAgent)
        let full = configuration.dryRun
            ? nil : HTTPBeaconTransport(userAgent: configuration.userAgent, connectTimeout: configuration.beaconPolicy.timeout,
                                        clock: clock, gate: beaconGate, proxy: configuration.proxy)
        let pooled = full.flatMap { full in
            !pooledBeacons ? nil : PooledBeaconTransport(userAgent: configuration.userAgent, connectTimeout: configuration.beaconPolicy.timeout, clock: clock,
                                         gate: beaconGate, proxy: configuration.proxy, maxConnectionsPerHost: configuration.beaconPolicy.maxConcurrent,
                                         pipelineDepth: configuration.beaconPolicy.pipelineDepth, keepsHeaders: false, fallback: full)
        }
        let beacons: (any BeaconTransport)? = pooled ?? full
        var environment = SessionEnvironment(
            tagFetcher: tags, beaconTransport: beacons, media: FFmpegMediaOpener(gate: gate, redirects: redirects, proxy: configuration.proxy), networkClock: clock,
            wallClock: liveWallClock,
            playbackClock: { mode in
                switch mode {
                case .virtual: VirtualClock()
                case let .realtime(speed): ScaledClock(speed: speed, base: clock)
                }
            },
            mediaExecutor: BlockingExecutor.shared,
            shutdown: {
                await tags.shutdown()
                // The pooled transport shuts its fallback (`full`) down too.
                if let pooled { await pooled.shutdown() } else { await full?.shutdown() }
            })
        if pooled != nil { environment.sessionExecutors = EventLoopTaskExecutor.shared }
        return environment
    }

    /// A beacon transport alone (`vplay beacon-load`), with the monotonic clock it measures on.
    /// - Parameters:
    ///   - pooled: through `PooledBeaconTransport` (a fleet's), with at most `connections` per host,
    ///   - pipeline: each carrying up to this many requests at once (pipelined when more than one).
    public static func liveBeacons(userAgent: String, pooled: Bool = false, connections: Int = 64, pipeline: Int = 1)
        -> (transport: any BeaconTransport, shutdown: @Sendable () async -> Void, clock: ContinuousClock, wallClock: @Sendable () -> Int64) {
        let clock = ContinuousClock()
        let full = HTTPBeaconTransport(userAgent: userAgent, clock: clock)
        guard pooled else { return (full, { await full.shutdown() }, clock, liveWallClock) }
        let transport = PooledBeaconTransport(userAgent: userAgent, clock: clock, maxConnectionsPerHost: connections, pipelineDepth: pipeline, fallback: full)
        return (transport, { await transport.shutdown() }, clock, liveWallClock)
    }

    /// The transport `vplay reward-check` sends its signed cases with: the address policy of `configuration`, its
    /// proxy, and no redirect followed (a case goes to the endpoint given and nowhere else; a redirect is its answer).
    public static func liveRewardCheck(_ configuration: SessionConfiguration) -> (transport: any BeaconTransport, shutdown: @Sendable () async -> Void) {
        let gate = URLGate(policy: configuration.addressPolicy, resolve: AddressPolicy.systemResolve)
        let transport = HTTPBeaconTransport(userAgent: configuration.userAgent, connectTimeout: configuration.beaconPolicy.timeout, clock: ContinuousClock(),
                                            gate: gate, proxy: configuration.proxy, followsRedirects: false)
        return (transport, { await transport.shutdown() })
    }

    /// The machine's monotonic clock, for what the CLI itself times (a real-time console, progress bars).
    public static func liveMonotonicClock() -> ContinuousClock { ContinuousClock() }

    /// The machine's wall time now, for when a CLI command started (a JUnit report's timestamp).
    public static func liveWallTime() -> Date { Date() }

    /// Opens a media file with FFmpeg directly (`vplay probe`: container facts, demux and decode passes).
    public static func liveMediaSource(_ location: String, options: MediaOpenOptions) throws(MediaError) -> FFmpegMediaSource {
        try FFmpegMediaSource(location: location, options: options)
    }

    /// Milliseconds since 1970 on the machine's clock.
    static let liveWallClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// FFmpeg behind the media seam.
struct FFmpegMediaOpener: MediaOpening {
    /// Every media URL passes it, and so does each redirect target (`redirects`).
    var gate: URLGate = .open
    /// nil: FFmpeg follows redirects itself (tests of the media seam alone).
    var redirects: MediaRedirects?
    var proxy = ProxySettings.direct

    func open(_ location: String, options: MediaOpenOptions) throws(MediaError) -> any MediaSource {
        try FFmpegMediaSource(location: location, options: gated(options))
    }

    func openForDemux(_ location: String) throws(MediaError) -> any PacketSource {
        // A pass that times the download: no timeline pass before it (that would read a local file twice).
        try FFmpegMediaSource(location: location, options: gated(MediaOpenOptions(decoderThreads: 1, openDecoders: false, measureTimeline: false)))
    }

    func deliveryMap(_ location: String, timelineStart: Duration, streaming: StreamingOptions?) throws(MediaError) -> DeliveryMap {
        var options = MediaOpenOptions(decoderThreads: 1, openDecoders: false, measureTimeline: false)
        options.streaming = streaming
        return try FFmpegMediaSource.deliveryMap(location: location, options: gated(options), timelineStart: timelineStart)
    }

    private func gated(_ options: MediaOpenOptions) -> MediaOpenOptions {
        var options = options
        options.urlGate = gate
        options.proxy = proxy
        if let redirects {
            options.redirects = { url, timeout throws(MediaError) in try redirects.resolve(url, timeout: timeout) }
        }
        return options
    }
}

extension FFmpegMediaSource: PacketSource {
    /// Reads the next packet with the demuxer (no decode); false after the last.
    public func readPacket() throws(MediaError) -> Bool { try nextPacket() != nil }
}
