import BeaconSink
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// Everything a session reaches outside itself: the tag fetcher, the beacon transport, the media opener, the clock
/// that times the network (timeouts, retries, drains, resolution budgets) and the wall clock (`[TIMESTAMP]`, send
/// times). `live(_:)` is the only place that builds the real ones; tests build environments from in-memory
/// fetchers, recording transports, timeline media and `ManualClock`s, so every session step runs without sockets or
/// sleeps.
public struct SessionEnvironment: Sendable {
    /// Fetches http(s) tags: the `--vast` URL and every wrapper's `VASTAdTagURI`. Local files and `--map` rules are
    /// layered on it by the tag loader.
    public var tagFetcher: any AdTagFetcher
    /// Sends beacons; nil for a dry run, which plans beacons and sends none.
    public var beaconTransport: (any BeaconTransport)?
    /// Opens the chosen media file.
    public var media: any MediaOpening
    /// Times everything that waits on the network: tag timeouts, beacon retries' backoff, the end-of-session drain,
    /// a fleet's run time. Never the playback clock (`SessionConfiguration.clock`).
    public var networkClock: any Clock<Duration>
    /// The clock playback runs on, for the configured mode: a `VirtualClock` (as fast as decoding allows, exact
    /// times) or real time scaled by `--speed`.
    public var playbackClock: @Sendable (SessionConfiguration.ClockMode) -> any Clock<Duration>
    /// Milliseconds since 1970: `[TIMESTAMP]` when `--now` is not given, each beacon attempt's `sentAt`.
    public var wallClock: @Sendable () -> Int64
    /// Where media is opened and decoded. FFmpeg blocks its thread (network reads wait up to their timeouts), so the
    /// live environment gives it threads of its own, never Swift's cooperative pool; nil runs it where the caller is
    /// (tests with in-memory media).
    public var mediaExecutor: (any TaskExecutor)?
    /// Where a fleet's sessions run, in turn (session i on executor i mod count); empty: Swift's default executor.
    /// The live fleet's are the event loops of its pooled beacon transport, so a session, its beacons' attempts and
    /// their answers stay on one thread. Whatever runs there must not block (media decoding goes to
    /// `mediaExecutor`).
    public var sessionExecutors: [any TaskExecutor] = []
    /// Closes what the environment opened (HTTP clients); called once when the session or fleet is over.
    public var shutdown: @Sendable () async -> Void
    /// Starts the embedded beacon sink a run asks for (`--sink`, `--sink-all`) and returns it with the loopback port
    /// it listens on. By default a real `BeaconSink`, its hits timed by `wallClock`.
    public var startSink: @Sendable (SinkConfiguration) async throws -> (sink: BeaconSink, port: Int)

    /// An environment of the given parts. By default playback runs on a `VirtualClock` whatever the clock mode, media
    /// is opened on the caller's executor, and `shutdown` does nothing; `sessionExecutors` starts empty.
    public init(tagFetcher: any AdTagFetcher, beaconTransport: (any BeaconTransport)?, media: any MediaOpening,
                networkClock: any Clock<Duration>, wallClock: @escaping @Sendable () -> Int64,
                playbackClock: @escaping @Sendable (SessionConfiguration.ClockMode) -> any Clock<Duration> = { _ in VirtualClock() },
                mediaExecutor: (any TaskExecutor)? = nil, shutdown: @escaping @Sendable () async -> Void = {}) {
        self.tagFetcher = tagFetcher
        self.beaconTransport = beaconTransport
        self.media = media
        self.networkClock = networkClock
        self.wallClock = wallClock
        self.playbackClock = playbackClock
        self.mediaExecutor = mediaExecutor
        self.shutdown = shutdown
        startSink = Self.embeddedSink(wallClock: wallClock)
    }

    /// Starts a `BeaconSink` on a loopback port the system picks, its hits timed by `wallClock`.
    public static func embeddedSink(wallClock: @escaping @Sendable () -> Int64)
        -> @Sendable (SinkConfiguration) async throws -> (sink: BeaconSink, port: Int) {
        { configuration in
            let sink = BeaconSink(configuration: configuration, now: wallClock)
            return (sink, try await sink.start())
        }
    }

    /// Runs `body` on the media executor (where FFmpeg may block), when there is one.
    ///
    /// Setting the preference does not always move the running task: a synchronous function passed as `body` (an
    /// FFmpeg open) reaches here through a conversion thunk that never hops, and neither does a closure that only
    /// awaits it, so it ran on the caller's thread (measured: the cooperative pool, a fleet's event loop) although the
    /// preference was set. One yield first moves the task to the preferred executor.
    func onMediaExecutor<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        guard let mediaExecutor else { return try await body() }
        return try await withTaskExecutorPreference(mediaExecutor) { () async throws(Failure) -> T in
            if (mediaExecutor as? BlockingExecutor)?.isCurrent != true { await Task.yield() }
            return try await body()
        }
    }
}
