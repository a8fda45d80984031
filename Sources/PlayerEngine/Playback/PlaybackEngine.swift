/// Drives an `AdPlayback` state machine with real decoded frames on a clock. It sleeps until the earliest of the next
/// frame's presentation time, the next boundary (quartile, progress offset, skip offset, reward threshold, close
/// control) and the next scripted action — never polling — so every event fires at its exact time.
///
/// On a `VirtualClock` a session runs as fast as decoding allows and its times are exact; on `ContinuousClock` or a
/// `ScaledClock` it runs in (scaled) real time. There, events carry their scheduled times and the report gives the
/// worst lateness measured; a decoder slower than the clock is a stall that is counted and not played time.
public struct PlaybackEngine: Sendable {
    public struct Configuration: Sendable {
        public var rules: PlaybackRules
        /// In real time, a frame presented later than this counts as late and the wait as a stall (two frames at
        /// 30 fps: later than that is visible to a viewer).
        public var lateThreshold: Duration

        public init(rules: PlaybackRules = .init(), lateThreshold: Duration = .milliseconds(66)) {
            self.rules = rules
            self.lateThreshold = lateThreshold
        }

        /// Shorthand for a plain play with progress offsets.
        public init(duration: Duration? = nil, progressOffsets: [Duration]) {
            var rules = PlaybackRules(duration: duration)
            rules.progressOffsets = progressOffsets
            self.init(rules: rules)
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Plays `source` on `clock`, following `script`, calling `onEvent` for each event in order, at its time.
    /// - Parameters:
    ///   - reopen: opens the media again from the start for a replay; without it a replay fails with `readFailed`.
    /// - Throws: `MediaError` when the media cannot be played (events before the failure have been delivered);
    ///   `CancellationError` when the task is cancelled.
    public func play<C: Clock>(
        _ source: any MediaSource,
        script: SessionScript = SessionScript(),
        reopen: (() throws(MediaError) -> any MediaSource)? = nil,
        on clock: C,
        onEvent: (PlaybackEvent) async -> Void
    ) async throws -> PlaybackReport where C.Duration == Duration {
        var report = PlaybackReport()
        var source = source
        guard let first = try source.nextFrame() else {
            throw MediaError.corruptStream(location: source.info.location, decodeErrors: source.statistics.decodeErrors, message: "no frames")
        }
        let duration = configuration.rules.duration ?? source.info.exactDuration
        guard duration > .zero else {
            throw MediaError.readFailed(location: source.info.location, message: "the container gives no duration")
        }
        report.duration = duration
        var machine = AdPlayback(rules: configuration.rules, duration: duration)
        let sessionStart = clock.now
        func emit(_ events: [PlaybackEvent]) async {
            for event in events {
                report.record(event)
                await onEvent(event)
            }
        }

        await emit(machine.begin(at: .zero, playhead: first.time))
        report.framesPresented = 1
        var upcoming = try source.nextFrame()
        var step = 0
        var play = machine.play

        while machine.phase != .closed {
            try Task.checkCancellation()
            let frameDue: Duration? = {
                guard machine.phase == .playing, let frame = upcoming, frame.time < duration else { return nil }
                return machine.clock(forPlayhead: frame.time)
            }()
            let boundaryDue = machine.nextDeadline()
            let actionDue = script.time(at: step)
            guard let target = [frameDue, boundaryDue, actionDue].compactMap({ $0 }).min() else {
                await emit(machine.finish(at: sessionStart.duration(to: clock.now)))
                break
            }
            let due = sessionStart.advanced(by: target)
            try await clock.sleep(until: due, tolerance: nil)
            let lateness = max(.zero, due.duration(to: clock.now))

            // At one instant: boundaries first (a skip at the skip offset is allowed), then actions, then the frame.
            if boundaryDue == target {
                report.maxBoundaryLateness = max(report.maxBoundaryLateness, lateness)
                report.boundaryLateness.append(lateness)
                await emit(machine.advance(to: target))
            }
            while actionDue != nil, let time = script.time(at: step), time == target {
                for input in script.steps[step].inputs { await emit(machine.handle(input, at: target)) }
                step += 1
            }
            if machine.play != play {
                // A replay: the media starts again from its first frame.
                play = machine.play
                guard let reopen else { throw MediaError.readFailed(location: source.info.location, message: "replay needs the media reopened") }
                source = try reopen()
                _ = try source.nextFrame()
                report.framesPresented += 1
                upcoming = try source.nextFrame()
                continue
            }
            if frameDue == target, machine.phase == .playing, upcoming != nil {
                if lateness > configuration.lateThreshold {
                    // The decoder did not keep up: the viewer saw a frozen frame. That wait is not played time.
                    report.stalls += 1
                    report.stallTime += lateness
                    report.framesLate += 1
                    machine.stall(lateness, at: target)
                }
                report.framesPresented += 1
                upcoming = try source.nextFrame()
            }
        }
        report.statistics = source.statistics
        report.clock = sessionStart.duration(to: clock.now)
        report.completed = machine.ending == .completed
        report.ending = machine.ending
        report.rewardGranted = machine.rewardGranted
        report.plays = machine.play
        return report
    }
}

/// What a session measured.
public struct PlaybackReport: Sendable, Equatable {
    public init() {}

    /// The duration quartiles were computed on.
    public var duration: Duration = .zero
    public var events: [PlaybackEvent.Name] = []
    /// The video played to its end (in the last play).
    public var completed = false
    public var ending: AdPlayback.Ending?
    public var rewardGranted = false
    public var plays = 1
    public var framesPresented = 0
    /// Frames shown later than `Configuration.lateThreshold` (real-time modes only; never on a virtual clock).
    public var framesLate = 0
    public var stalls = 0
    public var stallTime: Duration = .zero
    /// The worst delay between a boundary's due time and its event (0 on a virtual clock).
    public var maxBoundaryLateness: Duration = .zero
    /// Each boundary's delay, in order (for percentiles in real-time runs).
    public var boundaryLateness: [Duration] = []
    /// Session clock at the end.
    public var clock: Duration = .zero
    public var statistics = DecodeStatistics(streams: [])

    mutating func record(_ event: PlaybackEvent) { events.append(event.name) }
}
