import Foundation
import Networking
@_spi(LiveParts) import PlayerEngine
@_spi(LiveParts) import Primitives
@_spi(LiveParts) import TrackingBeacons
import VAST

extension SessionEnvironment {
    /// The real world: HTTP for tags and beacons (none for a dry run), FFmpeg on its own threads, the machine's
    /// monotonic and wall clocks. With `LiveTools` (the same parts for the tools that are not sessions), the only
    /// place vplay builds an HTTP transport, an FFmpeg source, a `ContinuousClock` or reads `Date()`.
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
                                  proxy: configuration.proxy, origin: configuration.tagOrigin, clock: clock)
        // Media redirects are followed with the tag fetcher's client (same gate, same fail-at-once connections).
        let redirects = MediaRedirects(client: tags.client, userAgent: configuration.userAgent)
        // Server-side mode: every beacon from the stitcher, for the device (its own User-Agent, the device's X-Device-*).
        let beaconAgent = configuration.serverSide?.serverUserAgent ?? configuration.userAgent
        let deviceHeaders = configuration.serverSide?.headers(deviceUserAgent: configuration.userAgent) ?? []
        let full = configuration.dryRun
            ? nil : HTTPBeaconTransport(userAgent: beaconAgent, connectTimeout: configuration.beaconPolicy.timeout,
                                        clock: clock, gate: beaconGate, proxy: configuration.proxy, extraHeaders: deviceHeaders)
        let pooled = full.flatMap { full in
            !pooledBeacons ? nil : PooledBeaconTransport(userAgent: beaconAgent, connectTimeout: configuration.beaconPolicy.timeout, clock: clock,
                                         gate: beaconGate, proxy: configuration.proxy, maxConnectionsPerHost: configuration.beaconPolicy.maxConcurrent,
                                         pipelineDepth: configuration.beaconPolicy.pipelineDepth, keepsHeaders: false, extraHeaders: deviceHeaders, fallback: full)
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
