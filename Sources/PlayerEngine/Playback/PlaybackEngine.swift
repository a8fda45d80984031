import Primitives
/// Drives an `AdPlayback` state machine with real decoded frames on a clock. It sleeps until the earliest of the next
/// frame's presentation time, the next boundary (quartile, progress offset, skip offset, reward threshold, close
/// control) and the next scripted action — never polling — so every event fires at its exact time.
///
/// On a `VirtualClock` a session runs as fast as decoding allows and its times are exact; on `ContinuousClock` or a
/// `ScaledClock` it runs in (scaled) real time. There, events carry their scheduled times and the report gives the
/// worst lateness measured; a decoder slower than the clock is a stall that is counted and not played time.
public struct PlaybackEngine: Sendable {
    /// What the engine plays by: the ad's rules, the lateness thresholds of real-time play, and the network model.
    public struct Configuration: Sendable {
        /// The ad's rules: duration, offsets, skip, reward, close controls, end card, icons, viewability.
        public var rules: PlaybackRules
        /// In real time, a frame presented more than this after its time counts as late (10 ms: under one frame at
        /// 60 fps, the jitter a viewer does not see is below it).
        public var lateThreshold: Duration
        /// In real time, a frame presented more than this after its time is a stall: the viewer saw a frozen
        /// picture, and the wait does not count as played time (two frames at 30 fps: later than that is visible).
        public var stallThreshold: Duration
        /// A simulated network for the first play (`--network`): a frame is presented only once its bytes have
        /// arrived; otherwise playback stalls (`bufferStart`) until `rebuffer` of media has (`bufferFinish`). A replay
        /// plays from the downloaded file. nil: the media is all there.
        public var delivery: MediaDelivery?
        /// A real network for the first play (`--network` in real time, the source reading through a throttle): the
        /// engine buffers ahead as a player does, and a frame that comes later than its time stalls playback until
        /// `rebuffer` more media has really been read. Takes the place of `delivery`'s model.
        public var measuredNetwork: MeasuredNetwork?

        /// A configuration as given; a `stallThreshold` below `lateThreshold` is raised to it.
        public init(rules: PlaybackRules = .init(), lateThreshold: Duration = .milliseconds(10), stallThreshold: Duration = .milliseconds(66),
                    delivery: MediaDelivery? = nil, measuredNetwork: MeasuredNetwork? = nil) {
            self.rules = rules
            self.lateThreshold = lateThreshold
            self.stallThreshold = max(lateThreshold, stallThreshold)
            self.delivery = delivery
            self.measuredNetwork = measuredNetwork
        }

        /// Shorthand for a plain play with progress offsets.
        public init(duration: Duration? = nil, progressOffsets: [Duration]) {
            var rules = PlaybackRules(duration: duration)
            rules.progressOffsets = progressOffsets
            self.init(rules: rules)
        }
    }

    /// The buffering policy applied to bytes that really arrive late (real time under `--network`).
    public struct MeasuredNetwork: Sendable {
        /// Media buffered before the first frame.
        public var startupBuffer: Duration
        /// Media buffered before playback restarts after a stall.
        public var rebuffer: Duration
        /// A stall longer than this fails the ad; nil: no limit.
        public var stallTimeout: Duration?
        /// Time since the media was requested, on the session's network clock: the startup delay runs from there.
        public var sinceRequested: @Sendable () -> Duration
        /// Session seconds per wall second (`--speed`).
        public var speed: Double

        /// A policy as given; `sinceRequested` says how long ago, on the network clock, the media was requested.
        public init(startupBuffer: Duration, rebuffer: Duration, stallTimeout: Duration?, sinceRequested: @escaping @Sendable () -> Duration, speed: Double) {
            self.startupBuffer = startupBuffer
            self.rebuffer = rebuffer
            self.stallTimeout = stallTimeout
            self.sinceRequested = sinceRequested
            self.speed = speed
        }
    }

    /// What the engine plays by.
    public let configuration: Configuration

    /// An engine with `configuration` (by default: no rules beyond the media's own duration, no network).
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Plays `source` on `clock`, following `script`, calling `onEvent` for each event in order, at its time.
    ///
    /// The session's clock starts (at zero) when the first picture is shown: the first video frame when the media
    /// has a decodable video stream (audio frames before it are played at that instant), else the first frame.
    /// - Parameters:
    ///   - reopen: opens the media again from the start for a replay; without it a replay fails with `readFailed`.
    /// - Returns: what was measured. A cancelled task ends the session where it is and returns the report so far
    ///   with `interrupted` set.
    /// - Throws: `PlaybackFailure` when the media cannot be played to the end: it carries the `MediaError`, the
    ///   playhead and session clock where playback stopped, and the report so far. The `error` event (and
    ///   `rewardForfeited`, `close`) have been delivered by then.
    public nonisolated(nonsending) func play<C: Clock>(
        _ source: any MediaSource,
        script: SessionScript = SessionScript(),
        reopen: (() throws(MediaError) -> any MediaSource)? = nil,
        on clock: C,
        onEvent: nonisolated(nonsending) (PlaybackEvent) async -> Void
    ) async throws(PlaybackFailure) -> PlaybackReport where C.Duration == Duration {
        var report = PlaybackReport()
        var feed = FrameFeed(source: source, measuring: configuration.measuredNetwork != nil)
        let first: MediaFrame
        do {
            first = try Self.firstPicture(of: feed.source, presented: &report)
        } catch {
            report.statistics = feed.statistics
            throw PlaybackFailure(error: error, report: report, playhead: .zero, clock: .zero)
        }
        let duration = configuration.rules.duration ?? feed.source.info.exactDuration
        guard duration > .zero else {
            report.statistics = feed.statistics
            throw PlaybackFailure(error: .readFailed(location: feed.source.info.location, message: "neither its frames nor its container give a duration"),
                                  report: report, playhead: .zero, clock: .zero)
        }
        report.duration = duration
        report.startupDelay = configuration.delivery?.startupDelay
        if let measured = configuration.measuredNetwork {
            // Startup: the first frame shows once `startupBuffer` of media has really arrived.
            feed.buffer(through: first.time + measured.startupBuffer, after: first.time)
            report.startupDelay = measured.sinceRequested() * measured.speed
        }
        let sessionStart = clock.now
        // A clock that can be stepped (the virtual one) is moved without an async call, from `sessionStart` itself
        // (another task may move a shared one meanwhile).
        let stepClock = Self.stepper(clock, from: sessionStart)
        var loop = PlayLoop(configuration: configuration, script: script, duration: duration, first: first, feed: feed, report: report,
                            steps: stepClock != nil)
        await loop.emit(loop.machine.begin(at: .zero, playhead: first.time), to: onEvent)
        do {
            try await loop.run(on: clock, from: sessionStart, stepping: stepClock, reopen: reopen, onEvent: onEvent)
        } catch let error as MediaError {
            throw await loop.failed(error, onEvent: onEvent)
        } catch {
            // Cancelled (a signal, a deadline): the session stops where it is; what happened so far stands.
            return loop.interrupted(at: max(loop.now, sessionStart.duration(to: clock.now)))
        }
        return await loop.finished(onEvent: onEvent)
    }

    /// How to move `clock` to `start` plus a session time without suspending, when it is a `SteppableClock`; nil for
    /// a clock that must be slept on.
    static func stepper<C: Clock>(_ clock: C, from start: C.Instant) -> ((Duration) -> Void)? where C.Duration == Duration {
        guard let steppable = clock as? any SteppableClock else { return nil }
        return stepper(steppable, from: start)
    }

    private static func stepper<S: SteppableClock>(_ clock: S, from start: some InstantProtocol) -> ((Duration) -> Void)? {
        guard let start = start as? S.Instant else { return nil }
        return { clock.step(to: start.advanced(by: $0)) }
    }

    /// The earliest of the times given (called once per frame: no array).
    @inline(__always)
    static func earliest(_ a: Duration?, _ b: Duration?, _ c: Duration?, _ d: Duration?) -> Duration? {
        var result = a
        if let b { result = result.map { min($0, b) } ?? b }
        if let c { result = result.map { min($0, c) } ?? c }
        if let d { result = result.map { min($0, d) } ?? d }
        return result
    }

    /// Reads up to the first picture: the first video frame when the media has a decodable video stream, counting
    /// audio frames before it as played at the same instant; else the first frame of any stream.
    static func firstPicture(of source: any MediaSource, presented report: inout PlaybackReport) throws(MediaError) -> MediaFrame {
        let hasVideo = source.info.streams.contains { $0.type == .video && $0.decodable }
        while let frame = try source.nextFrame() {
            report.present(frame)
            if !hasVideo || frame.type == .video { return frame }
        }
        throw MediaError.corruptStream(location: source.info.location, decodeErrors: source.statistics.decodeErrors,
                                       message: hasVideo ? "no video frame" : "no frames")
    }
}
