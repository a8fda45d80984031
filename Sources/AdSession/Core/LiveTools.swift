import Foundation
import Networking
@_spi(LiveParts) import PlayerEngine
import Primitives
@_spi(LiveParts) import TrackingBeacons

/// The live parts of vplay's tools, which are not sessions: `beacon-load`'s transport, `reward-check`'s, `probe`'s
/// FFmpeg source, and the clocks the command line times itself with (a real-time console, progress, a JUnit
/// timestamp). Built here, as a session's are built by `SessionEnvironment.live(_:)` and nowhere else.
public enum LiveTools {
    /// A beacon transport alone (`vplay beacon-load`), with the monotonic clock it measures on.
    /// - Parameters:
    ///   - pooled: through `PooledBeaconTransport` (a fleet's), with at most `connections` per host,
    ///   - pipeline: each carrying up to this many requests at once (pipelined when more than one).
    public static func beacons(userAgent: String, pooled: Bool = false, connections: Int = 64, pipeline: Int = 1)
        -> (transport: any BeaconTransport, shutdown: @Sendable () async -> Void, clock: ContinuousClock, wallClock: @Sendable () -> Int64) {
        let clock = ContinuousClock()
        let full = HTTPBeaconTransport(userAgent: userAgent, clock: clock)
        guard pooled else { return (full, { await full.shutdown() }, clock, SessionEnvironment.liveWallClock) }
        let transport = PooledBeaconTransport(userAgent: userAgent, clock: clock, maxConnectionsPerHost: connections, pipelineDepth: pipeline, fallback: full)
        return (transport, { await transport.shutdown() }, clock, SessionEnvironment.liveWallClock)
    }

    /// The transport `vplay reward-check` sends its signed cases with: the address policy of `configuration`, its
    /// proxy, and no redirect followed (a case goes to the endpoint given and nowhere else; a redirect is its answer).
    public static func rewardCheck(_ configuration: SessionConfiguration) -> (transport: any BeaconTransport, shutdown: @Sendable () async -> Void) {
        let gate = URLGate(policy: configuration.addressPolicy, resolve: AddressPolicy.systemResolve)
        let transport = HTTPBeaconTransport(userAgent: configuration.userAgent, connectTimeout: configuration.beaconPolicy.timeout, clock: ContinuousClock(),
                                            gate: gate, proxy: configuration.proxy, followsRedirects: false)
        return (transport, { await transport.shutdown() })
    }

    /// The machine's monotonic clock, for what the CLI itself times (a real-time console, progress bars).
    public static func monotonicClock() -> ContinuousClock { ContinuousClock() }

    /// The machine's wall time now, for when a CLI command started (a JUnit report's timestamp).
    public static func wallTime() -> Date { Date() }

    /// Opens a media file with FFmpeg directly (`vplay probe`: container facts, demux and decode passes).
    public static func mediaSource(_ location: String, options: MediaOpenOptions) throws(MediaError) -> FFmpegMediaSource {
        try FFmpegMediaSource(location: location, options: options)
    }
}
