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
        /// When the media was requested, on the wall clock: the startup delay runs from here.
        public var requested: ContinuousClock.Instant
        /// Session seconds per wall second (`--speed`).
        public var speed: Double

        /// A policy as given; `requested` is the wall-clock instant the media was requested.
        public init(startupBuffer: Duration, rebuffer: Duration, stallTimeout: Duration?, requested: ContinuousClock.Instant, speed: Double) {
            self.startupBuffer = startupBuffer
            self.rebuffer = rebuffer
            self.stallTimeout = stallTimeout
            self.requested = requested
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
    public func play<C: Clock>(
        _ source: any MediaSource,
        script: SessionScript = SessionScript(),
        reopen: (() throws(MediaError) -> any MediaSource)? = nil,
        on clock: C,
        onEvent: nonisolated(nonsending) (PlaybackEvent) async -> Void
    ) async throws(PlaybackFailure) -> PlaybackReport where C.Duration == Duration {
        var report = PlaybackReport()
        var source = source
        /// Statistics of sources a replay replaced.
        var earlier = DecodeStatistics(streams: [])
        func finalize() {
            report.statistics = earlier.adding(source.statistics)
        }

        let first: MediaFrame
        do {
            first = try Self.firstPicture(of: source, presented: &report)
        } catch {
            finalize()
            throw PlaybackFailure(error: error, report: report, playhead: .zero, clock: .zero)
        }
        let duration = configuration.rules.duration ?? source.info.exactDuration
        guard duration > .zero else {
            finalize()
            throw PlaybackFailure(error: .readFailed(location: source.info.location, message: "neither its frames nor its container give a duration"),
                                  report: report, playhead: .zero, clock: .zero)
        }
        report.duration = duration
        report.startupDelay = configuration.delivery?.startupDelay
        /// A media error met while reading ahead. Playback goes on to the end of the data already decoded (the last
        /// frame shown plays to its end, boundaries before it fire), and fails there, as a real player runs dry.
        var pendingFailure: MediaError?
        /// Frames read ahead of the one due next (real time under `--network`: a player's buffer).
        var ahead: [MediaFrame] = []
        var aheadHead = 0
        /// Whether the last frame read from the source waited for network bytes.
        var waited = false
        let measuring = configuration.measuredNetwork != nil
        func read() -> MediaFrame? {
            // Only a throttled source waits for bytes; others are not asked on every frame.
            let waits = measuring ? source.networkWaits : 0
            defer { if measuring { waited = source.networkWaits > waits } }
            do { return try source.nextFrame() } catch {
                pendingFailure = error
                return nil
            }
        }
        func fetch() -> MediaFrame? {
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
        func buffer(through limit: Duration, after: Duration) {
            while pendingFailure == nil, (aheadHead < ahead.count ? ahead.last!.time : after) < limit, let frame = read() { ahead.append(frame) }
        }
        if let measured = configuration.measuredNetwork {
            // Startup: the first frame shows once `startupBuffer` of media has really arrived.
            buffer(through: first.time + measured.startupBuffer, after: first.time)
            report.startupDelay = measured.requested.duration(to: .now) * measured.speed
        }
        var machine = AdPlayback(rules: configuration.rules, duration: duration)
        /// A duration the container declared (an HLS playlist's `#EXTINF`s), not the frames': before the ad completes
        /// on it, the rest of the data is read, and a source whose frames go on well past it fails there
        /// (`durationMismatch`) instead of completing a view of a fraction of its pictures.
        let checksDeclaredEnd = configuration.rules.duration == nil && source.info.timeline.measuredBy == .container
        let sessionStart = clock.now
        // A clock that can be stepped (the virtual one) is moved without an async call, from `sessionStart` itself
        // (another task may move a shared one meanwhile).
        let stepClock = Self.stepper(clock, from: sessionStart)
        // On the virtual clock without a simulated network, a frame is never late and nothing waits for bytes: the
        // frames due before the next other thing (a boundary, a script step, a failure) are presented in one go,
        // without a sleep each (a fleet replays hundreds of frames per session). The same frames, times and counts.
        let batchesFrames = stepClock != nil && configuration.delivery == nil && configuration.measuredNetwork == nil
        nonisolated(nonsending) func emit(_ events: [PlaybackEvent]) async {
            for event in events {
                report.record(event)
                await onEvent(event)
            }
        }

        await emit(machine.begin(at: .zero, playhead: first.time))
        var step = 0
        var play = machine.play
        /// The scheduled time of the last thing handled: when the session is at, in scheduled (not measured) time.
        var now: Duration = .zero
        var dataEnd = first.end
        /// A network stall under way: when it began, and when enough media will have arrived (nil: never).
        var stall: (since: Duration, ready: Duration?)?
        do {
            var upcoming = fetch()
            var upcomingWaited = waited
            while machine.phase != .closed {
                try Task.checkCancellation()
                var frameDue: Duration?
                if machine.phase == .playing, !machine.buffering, let frame = upcoming, frame.time < duration { frameDue = machine.clock(forPlayhead: frame.time) }
                let readyDue = stall?.ready
                let stallDeadline = stall.flatMap { stall in configuration.delivery?.stallTimeout.map { stall.since + $0 } }
                let failureDue: Duration? = pendingFailure == nil ? nil : machine.clock(forPlayhead: min(dataEnd, duration))
                let boundaryDue = machine.nextDeadline()
                let actionDue = script.time(at: step)
                guard let target = Self.earliest(Self.earliest(frameDue, boundaryDue, actionDue, failureDue), readyDue, stallDeadline, nil) else {
                    // Nothing more will come. Data that ran out under a suppressed video is still a failure.
                    if let pendingFailure { throw pendingFailure }
                    // A stall the media never ends lasted until the session was given up.
                    if let current = stall { report.rebufferTime += max(.zero, now - current.since) }
                    await emit(machine.finish(at: now))
                    break
                }
                let due = sessionStart.advanced(by: target)
                if let stepClock {
                    // What its `sleep` does, without an async call (each one a hop to the task's executor and back).
                    stepClock(target)
                } else {
                    try await clock.sleep(until: due, tolerance: nil)
                }
                let lateness = max(.zero, due.duration(to: clock.now))
                now = max(now, target)

                // At one instant: boundaries first (a skip at the skip offset is allowed), then actions, then the frame.
                if boundaryDue == target {
                    if checksDeclaredEnd, pendingFailure == nil, machine.phase == .playing, machine.playhead(at: target) >= duration {
                        buffer(through: .seconds(Int64.max / 2), after: upcoming?.time ?? duration)
                        if let mismatch = pendingFailure, case .durationMismatch = mismatch { throw mismatch }
                    }
                    report.maxBoundaryLateness = max(report.maxBoundaryLateness, lateness)
                    report.boundaryLateness.append(lateness)
                    await emit(machine.advance(to: target))
                }
                while actionDue != nil, let time = script.time(at: step), time == target {
                    for input in script.steps[step].inputs { await emit(machine.handle(input, at: target)) }
                    step += 1
                }
                if failureDue == target, machine.phase == .playing, let pendingFailure { throw pendingFailure }
                if let current = stall {
                    if !machine.buffering {
                        // The video ended (a skip, a close) while stalled: the stall lasted until then.
                        report.rebufferTime += target - current.since
                        stall = nil
                    } else if readyDue == target {
                        report.rebufferTime += target - current.since
                        stall = nil
                        await emit(machine.finishBuffering(at: target))
                    } else if stallDeadline == target, let limit = configuration.delivery?.stallTimeout {
                        report.rebufferTime += target - current.since
                        throw MediaError.networkTimedOut(location: source.info.location,
                            message: "playback stalled for longer than the stall timeout of \(limit.millisecondText) s (network \(configuration.delivery!.profile))")
                    }
                }
                if machine.play != play {
                    // A replay: the media starts again from its first frame.
                    play = machine.play
                    guard let reopen else { throw MediaError.readFailed(location: source.info.location, message: "replay needs the media reopened") }
                    earlier = earlier.adding(source.statistics)
                    pendingFailure = nil
                    ahead.removeAll()
                    aheadHead = 0
                    source = try reopen()
                    dataEnd = try Self.firstPicture(of: source, presented: &report).end
                    upcoming = fetch()
                    upcomingWaited = waited
                    continue
                }
                if frameDue == target, machine.phase == .playing, play == 1, let delivery = configuration.delivery, let frame = upcoming,
                   delivery.available(through: frame.time).map({ $0 > target }) ?? true {
                    // The frame has not arrived: stall until `rebuffer` of media from here has (all of it, near the end).
                    report.rebuffers += 1
                    let ready = delivery.available(through: frame.time + delivery.rebuffer).map { max($0, target) }
                    stall = (target, ready)
                    await emit(machine.startBuffering(at: target))
                    continue
                }
                if frameDue == target, machine.phase == .playing, play == 1, let measured = configuration.measuredNetwork,
                   let frame = upcoming, lateness > configuration.stallThreshold, upcomingWaited {
                    // The frame's bytes came after its time: playback stalled there, and restarts once `rebuffer` more
                    // media has really been read (or the data ends).
                    report.rebuffers += 1
                    await emit(machine.startBuffering(at: target))
                    // Measured on the session's clock (real time, scaled by --speed).
                    let began = clock.now
                    buffer(through: frame.time + measured.rebuffer, after: frame.time)
                    let ready = max(target, sessionStart.duration(to: clock.now))
                    report.rebufferTime += ready - target
                    if let limit = measured.stallTimeout, began.duration(to: clock.now) > limit {
                        throw MediaError.networkTimedOut(location: source.info.location,
                            message: "playback stalled for longer than the stall timeout of \(limit.millisecondText) s")
                    }
                    now = max(now, ready)
                    await emit(machine.finishBuffering(at: ready))
                    continue
                }
                if frameDue == target, machine.phase == .playing, let frame = upcoming {
                    if lateness > configuration.lateThreshold { report.framesLate += 1 }
                    report.maxFrameLateness = max(report.maxFrameLateness, lateness)
                    if lateness > configuration.stallThreshold {
                        // The decoder did not keep up: the viewer saw a frozen frame. That wait is not played time.
                        report.stalls += 1
                        report.stallTime += lateness
                        machine.stall(lateness, at: target)
                    }
                    report.present(frame)
                    dataEnd = max(dataEnd, frame.end)
                    upcoming = fetch()
                    upcomingWaited = waited
                    if batchesFrames {
                        // Strictly before the next other due time: at an equal instant boundaries and steps go first.
                        let other = Self.earliest(boundaryDue, actionDue, nil, nil)
                        // A replayed timeline's frames are taken straight from its array (a fleet replays hundreds per
                        // session: no protocol call, no read-ahead bookkeeping each; nothing is read ahead there).
                        let replay = aheadHead >= ahead.count ? source.replay : nil
                        if let replay, upcoming != nil, pendingFailure == nil, machine.phase == .playing, !machine.buffering,
                           let mapping = machine.clockMapping {
                            // A run of them at once: the timeline finds where the frames due before `other` end (or
                            // an index before that) and adds the run up; the loop below takes the rest one by one.
                            let start = replay.lastReturned
                            let stop = replay.timeline.firstStop(from: start) { time in
                                !(time < duration) || other.map { mapping.clock(forPlayhead: time) >= $0 } ?? false
                            }
                            if stop > start {
                                let run = replay.timeline.run(start..<stop)
                                // The latest time has the latest due: the clock runs straight while frames play.
                                now = max(now, mapping.clock(forPlayhead: run.latestTime))
                                report.present(stop - start, videoFrames: run.videoFrames)
                                dataEnd = max(dataEnd, run.latestEnd)
                                upcoming = replay.resume(at: stop)
                                upcomingWaited = waited
                            }
                        }
                        while pendingFailure == nil, machine.phase == .playing, !machine.buffering, let next = upcoming, next.time < duration {
                            guard let due = machine.clock(forPlayhead: next.time), other.map({ due < $0 }) ?? true else { break }
                            now = max(now, due)
                            report.present(next)
                            dataEnd = max(dataEnd, next.end)
                            if let replay { upcoming = replay.nextReplayedFrame() } else { upcoming = fetch() }
                            upcomingWaited = waited
                        }
                    }
                }
            }
        } catch let error as MediaError {
            let events = machine.fail(error, at: now)
            await emit(events)
            report.stepsHandled = step
            finalize()
            report.finish(machine, clock: now)
            throw PlaybackFailure(error: error, report: report, playhead: events.first?.playhead ?? machine.playhead(at: now), clock: now)
        } catch {
            // Cancelled (a signal, a deadline): the session stops where it is; what happened so far stands.
            finalize()
            report.interrupted = true
            report.finish(machine, clock: max(now, sessionStart.duration(to: clock.now)))
            return report
        }
        report.stepsHandled = step
        // Script steps after the ad closed are reported, never dropped silently (in a pod, they are the next ad's).
        while !configuration.rules.handsOver, step < script.steps.count {
            await emit([machine.ignored(script.steps[step].text, at: now)])
            step += 1
        }
        finalize()
        report.finish(machine, clock: now)
        return report
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

/// The media failed during playback: what failed, where playback stopped, and what was measured until then.
public struct PlaybackFailure: Error, Sendable, CustomStringConvertible {
    /// The media's error.
    public var error: MediaError
    /// What was measured until playback stopped.
    public var report: PlaybackReport
    /// The playhead and session clock at which playback stopped.
    public var playhead: Duration
    /// The session clock at which playback stopped.
    public var clock: Duration

    /// A failure as given.
    public init(error: MediaError, report: PlaybackReport, playhead: Duration, clock: Duration) {
        self.error = error
        self.report = report
        self.playhead = playhead
        self.clock = clock
    }

    public var description: String { error.description }
}

/// What a session measured.
public struct PlaybackReport: Sendable, Equatable {
    /// An empty report: nothing played yet, one play.
    public init() {}

    /// The duration quartiles were computed on.
    public var duration: Duration = .zero
    /// The names of every event fired, in order.
    public var events: [PlaybackEvent.Name] = []
    /// The video played to its end (in the last play).
    public var completed = false
    /// How the ad's play ended; nil when it did not end.
    public var ending: AdPlayback.Ending?
    /// The reward was granted.
    public var rewardGranted = false
    /// Plays of the video: 1, plus one per replay.
    public var plays = 1
    /// Frames of every stream handed to the screen or speaker at their time, over all plays.
    public var framesPresented = 0
    /// Of those, video frames (pictures shown).
    public var videoFramesPresented = 0
    /// Frames presented more than `Configuration.lateThreshold` after their time (real-time modes only; never on a
    /// virtual clock).
    public var framesLate = 0
    /// The worst delay of a frame's presentation after its time.
    public var maxFrameLateness: Duration = .zero
    /// Frames presented more than `Configuration.stallThreshold` late: the picture froze, and the playhead was held.
    public var stalls = 0
    /// Time frozen by stalls (not counted as played).
    public var stallTime: Duration = .zero
    /// Under a simulated network: from the media request to the first picture (nil without one, or when it never
    /// came).
    public var startupDelay: Duration?
    /// Under a simulated network: how many times playback stalled for media (`bufferStart`).
    public var rebuffers = 0
    /// Session time spent in those stalls (not played).
    public var rebufferTime: Duration = .zero
    /// The worst delay between a boundary's due time and its event (0 on a virtual clock).
    public var maxBoundaryLateness: Duration = .zero
    /// Each boundary's delay, in order (for percentiles in real-time runs).
    public var boundaryLateness: [Duration] = []
    /// Session clock at the end.
    public var clock: Duration = .zero
    /// The session was cancelled before it ended.
    public var interrupted = false
    /// How many of the script's steps (in time order) were handled before the ad closed.
    public var stepsHandled = 0
    /// Decode statistics over every play (a replay decodes the media again).
    public var statistics = DecodeStatistics(streams: [])

    /// Frames decoded that were never presented: decoded ahead when the video ended early (skip, close, a
    /// failure, an interruption) or past the ad's duration. vplay never drops a late frame: a late decoder is a
    /// stall instead.
    public var framesNotShown: Int { max(0, statistics.frames - framesPresented) }

    mutating func record(_ event: PlaybackEvent) { events.append(event.name) }

    mutating func present(_ frame: MediaFrame) {
        present(1, videoFrames: frame.type == .video ? 1 : 0)
    }

    /// `count` frames presented, `videoFrames` of them pictures.
    mutating func present(_ count: Int, videoFrames: Int) {
        framesPresented += count
        videoFramesPresented += videoFrames
    }

    mutating func finish(_ machine: AdPlayback, clock: Duration) {
        self.clock = clock
        completed = machine.ending == .completed
        ending = machine.ending
        rewardGranted = machine.rewardGranted
        plays = machine.play
    }
}
