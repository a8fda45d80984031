/// Plays a `MediaSource` on a clock: each decoded frame is presented at its timestamp, and every playhead boundary
/// (quartiles, progress offsets) fires at its exact time — the driver sleeps until the earliest of the next frame and
/// the next boundary, instead of polling (peers poll every 200 ms to 1 s and are late by up to that).
///
/// On a `VirtualClock` a play runs as fast as decoding allows and its times are exact; on `ContinuousClock` or a
/// `ScaledClock` it runs in (scaled) real time, and a decoder slower than the clock is reported as a stall that does
/// not count as played time.
public struct PlaybackEngine: Sendable {
    public struct Configuration: Sendable {
        /// Overrides the media's duration (seconds of playhead at which `complete` fires); nil uses the container's.
        public var duration: Duration?
        /// VAST progress offsets, resolved to playhead times.
        public var progressOffsets: [Duration]
        /// A frame presented later than this after its time counts as late; a wait this long for the decoder in real
        /// time is a stall (two frames at 30 fps: later than that is visible to a viewer).
        public var lateThreshold: Duration

        public init(duration: Duration? = nil, progressOffsets: [Duration] = [], lateThreshold: Duration = .milliseconds(66)) {
            self.duration = duration
            self.progressOffsets = progressOffsets
            self.lateThreshold = lateThreshold
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Plays `source` to its end on `clock`, calling `onEvent` for each event in order, at its time.
    /// - Throws: `MediaError` when the media cannot be played (events before the failure have been delivered);
    ///   `CancellationError` when the task is cancelled.
    public func play<C: Clock>(
        _ source: some MediaSource,
        on clock: C,
        onEvent: (PlaybackEvent) async -> Void
    ) async throws -> PlaybackReport where C.Duration == Duration {
        var report = PlaybackReport()
        guard let first = try source.nextFrame() else {
            throw MediaError.corruptStream(location: source.info.location, decodeErrors: source.statistics.decodeErrors, message: "no frames")
        }
        let duration = configuration.duration ?? source.info.exactDuration
        guard duration > .zero else {
            throw MediaError.readFailed(location: source.info.location, message: "the container gives no duration")
        }
        report.duration = duration
        var milestones = Milestones(duration: duration, progressOffsets: configuration.progressOffsets)

        // Session clock zero = the first frame on screen. `origin` moves forward by every stall, so that the
        // playhead is always `first.time + (now - origin)` while playing.
        let sessionStart = clock.now
        var origin = sessionStart
        let playheadZero = first.time
        func sessionTime() -> Duration { sessionStart.duration(to: clock.now) }
        func emit(_ name: PlaybackEvent.Name, at playhead: Duration, offset: Duration? = nil) async {
            report.events.append(name)
            await onEvent(PlaybackEvent(name: name, playhead: playhead, clock: sessionTime(), offset: offset))
        }

        for name in [PlaybackEvent.Name.loaded, .impression, .creativeView, .start] { await emit(name, at: playheadZero) }
        report.framesPresented = 1
        for boundary in milestones.advance(to: playheadZero) { await emit(boundary.name, at: playheadZero, offset: boundary.offset) }

        var upcoming = try source.nextFrame()
        var completed = milestones.next == nil
        while !completed {
            try Task.checkCancellation()
            // Frames that start at or after the ad's end are not shown: `complete` ends the play.
            let frameTime = upcoming.flatMap { $0.time < duration ? $0.time : nil }
            guard let target = [frameTime, milestones.next].compactMap({ $0 }).min() else { break }
            let due = origin.advanced(by: target - playheadZero)
            try await clock.sleep(until: due, tolerance: nil)
            let lateness = due.duration(to: clock.now)

            if milestones.next == target {
                report.maxBoundaryLateness = max(report.maxBoundaryLateness, lateness)
                for boundary in milestones.advance(to: target) {
                    await emit(boundary.name, at: target, offset: boundary.offset)
                    if boundary.name == .complete { completed = true }
                }
            }
            if let frame = upcoming, frame.time == target, !completed {
                if lateness > configuration.lateThreshold {
                    // The decoder did not keep up: the viewer saw a frozen frame. That wait is not played time.
                    report.stalls += 1
                    report.stallTime += lateness
                    origin = origin.advanced(by: lateness)
                    report.framesLate += 1
                }
                report.framesPresented += 1
                upcoming = try source.nextFrame()
            }
        }
        // What is left after complete (frames past the ad's duration) is read so the decode is verified to the end.
        while let frame = upcoming {
            if frame.time >= duration { report.framesBeyondDuration += 1 }
            upcoming = try source.nextFrame()
        }
        report.completed = completed
        report.statistics = source.statistics
        report.clock = sessionTime()
        return report
    }
}

/// What a play measured.
public struct PlaybackReport: Sendable, Equatable {
    public init() {}
    /// The duration quartiles were computed on.
    public var duration: Duration = .zero
    public var events: [PlaybackEvent.Name] = []
    public var completed = false
    public var framesPresented = 0
    /// Frames shown later than `Configuration.lateThreshold` (real-time modes only; never on a virtual clock).
    public var framesLate = 0
    /// Frames that start at or after the ad's duration (not shown).
    public var framesBeyondDuration = 0
    public var stalls = 0
    public var stallTime: Duration = .zero
    /// The worst delay between a boundary's due time and its event (0 on a virtual clock).
    public var maxBoundaryLateness: Duration = .zero
    /// Session clock at the end of the play.
    public var clock: Duration = .zero
    public var statistics = DecodeStatistics(streams: [])
}
