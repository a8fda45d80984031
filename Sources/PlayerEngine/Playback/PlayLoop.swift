/// One play of `PlaybackEngine`: the ad's state machine, the frames, and what happens at each wake-up. The loop
/// sleeps (or steps the clock) to the earliest of what is due next — the next frame's time, a boundary of the state
/// machine, a script step, a held-back media error, the end of a network stall — and handles what is due at that
/// instant in a fixed order: boundaries, script steps, a failure, a stall's end, a replay, then the frame (which may
/// stall under a network instead).
struct PlayLoop {
    typealias Emit = nonisolated(nonsending) (PlaybackEvent) async -> Void

    let configuration: PlaybackEngine.Configuration
    let script: SessionScript
    let duration: Duration
    /// A duration the container declared (an HLS playlist's `#EXTINF`s), not the frames': before the ad completes
    /// on it, the rest of the data is read, and a source whose frames go on well past it fails there
    /// (`durationMismatch`) instead of completing a view of a fraction of its pictures.
    let checksDeclaredEnd: Bool
    /// On a stepped clock without a simulated network, a frame is never late and nothing waits for bytes: the frames
    /// due before the next other thing (a boundary, a script step, a failure) are presented in one go, without a
    /// wake-up each (a fleet replays hundreds of frames per session). The same frames, times and counts.
    let batchesFrames: Bool
    var feed: FrameFeed
    var machine: AdPlayback
    var report: PlaybackReport
    /// The next script step to handle.
    var step = 0
    /// Which play of the video this is (a replay starts the next).
    var play: Int
    /// The scheduled time of the last thing handled: when the session is at, in scheduled (not measured) time.
    var now: Duration = .zero
    /// The end of the media presented so far.
    var dataEnd: Duration
    /// A network stall under way: when it began, and when enough media will have arrived (nil: never).
    var stall: (since: Duration, ready: Duration?)?
    /// The frame due next, and whether reading it waited for network bytes.
    var upcoming: MediaFrame?
    var upcomingWaited = false

    init(configuration: PlaybackEngine.Configuration, script: SessionScript, duration: Duration, first: MediaFrame, feed: FrameFeed,
         report: PlaybackReport, steps: Bool) {
        self.configuration = configuration
        self.script = script
        self.duration = duration
        checksDeclaredEnd = configuration.rules.duration == nil && feed.source.info.timeline.measuredBy == .container
        batchesFrames = steps && configuration.delivery == nil && configuration.measuredNetwork == nil
        self.feed = feed
        self.report = report
        machine = AdPlayback(rules: configuration.rules, duration: duration)
        play = machine.play
        dataEnd = first.end
    }

    /// Records `events` and hands them on, in order.
    nonisolated(nonsending) mutating func emit(_ events: [PlaybackEvent], to onEvent: Emit) async {
        for event in events {
            report.record(event)
            await onEvent(event)
        }
    }

    /// What is due when: each kind, and the earliest of them (nil: nothing more will come).
    struct Due {
        var frame, boundary, action, failure, ready, stallDeadline: Duration?
        var target: Duration?
    }

    func due() -> Due {
        var due = Due()
        if machine.phase == .playing, !machine.buffering, let frame = upcoming, frame.time < duration { due.frame = machine.clock(forPlayhead: frame.time) }
        due.ready = stall?.ready
        due.stallDeadline = stall.flatMap { stall in configuration.delivery?.stallTimeout.map { stall.since + $0 } }
        due.failure = feed.pendingFailure == nil ? nil : machine.clock(forPlayhead: min(dataEnd, duration))
        due.boundary = machine.nextDeadline()
        due.action = script.time(at: step)
        due.target = PlaybackEngine.earliest(PlaybackEngine.earliest(due.frame, due.boundary, due.action, due.failure), due.ready, due.stallDeadline, nil)
        return due
    }

    /// Plays until the ad closes. Throws a `MediaError` that ends the ad, or `CancellationError`.
    nonisolated(nonsending) mutating func run<C: Clock>(on clock: C, from sessionStart: C.Instant, stepping stepClock: ((Duration) -> Void)?,
                                reopen: (() throws(MediaError) -> any MediaSource)?, onEvent: Emit) async throws where C.Duration == Duration {
        takeNext()
        while machine.phase != .closed {
            try Task.checkCancellation()
            let due = due()
            guard let target = due.target else { return try await end(onEvent: onEvent) }
            let at = sessionStart.advanced(by: target)
            if let stepClock {
                // What a sleep on it does, without an async call (each one a hop to the task's executor and back).
                stepClock(target)
            } else {
                try await clock.sleep(until: at, tolerance: nil)
            }
            let lateness = max(.zero, at.duration(to: clock.now))
            now = max(now, target)

            // At one instant: boundaries first (a skip at the skip offset is allowed), then actions, then the frame.
            if due.boundary == target { try await boundary(at: target, lateness: lateness, onEvent: onEvent) }
            while due.action != nil, let time = script.time(at: step), time == target {
                for input in script.steps[step].inputs { await emit(machine.handle(input, at: target), to: onEvent) }
                step += 1
            }
            if due.failure == target, machine.phase == .playing, let failure = feed.pendingFailure { throw failure }
            // The network steps are entered only when there is a network: each async call takes a frame from the task's
            // allocator even when it returns at once, on every frame of every session.
            if stall != nil { try await endStall(due, at: target, onEvent: onEvent) }
            if try replay(reopen) { continue }
            guard due.frame == target, machine.phase == .playing else { continue }
            if configuration.delivery != nil, await simulatedStall(at: target, onEvent: onEvent) { continue }
            if configuration.measuredNetwork != nil,
               try await measuredStall(at: target, lateness: lateness, clock: clock, from: sessionStart, onEvent: onEvent) { continue }
            present(at: target, lateness: lateness, due: due)
        }
    }

    /// The frame due next, from the feed.
    mutating func takeNext() {
        upcoming = feed.next()
        upcomingWaited = feed.waited
    }

    /// Nothing more will come: data that ran out under a suppressed video is still a failure; a stall the media never
    /// ends lasted until the session was given up.
    nonisolated(nonsending) mutating func end(onEvent: Emit) async throws(MediaError) {
        if let failure = feed.pendingFailure { throw failure }
        if let current = stall { report.rebufferTime += max(.zero, now - current.since) }
        await emit(machine.finish(at: now), to: onEvent)
    }

    /// A boundary of the state machine (a quartile, an offset, the end…), measured for lateness. Completing on a
    /// declared duration first reads the rest of the data.
    nonisolated(nonsending) mutating func boundary(at target: Duration, lateness: Duration, onEvent: Emit) async throws(MediaError) {
        if checksDeclaredEnd, feed.pendingFailure == nil, machine.phase == .playing, machine.playhead(at: target) >= duration {
            feed.buffer(through: .seconds(Int64.max / 2), after: upcoming?.time ?? duration)
            if let mismatch = feed.pendingFailure, case .durationMismatch = mismatch { throw mismatch }
        }
        report.maxBoundaryLateness = max(report.maxBoundaryLateness, lateness)
        report.boundaryLateness.append(lateness)
        await emit(machine.advance(to: target), to: onEvent)
    }

    /// A simulated network's stall under way ends: the video ended meanwhile, enough media arrived, or it lasted
    /// past the stall timeout (an error).
    nonisolated(nonsending) mutating func endStall(_ due: Due, at target: Duration, onEvent: Emit) async throws(MediaError) {
        guard let current = stall else { return }
        if !machine.buffering {
            // The video ended (a skip, a close) while stalled: the stall lasted until then.
            report.rebufferTime += target - current.since
            stall = nil
        } else if due.ready == target {
            report.rebufferTime += target - current.since
            stall = nil
            await emit(machine.finishBuffering(at: target), to: onEvent)
        } else if due.stallDeadline == target, let delivery = configuration.delivery, let limit = delivery.stallTimeout {
            report.rebufferTime += target - current.since
            throw MediaError.networkTimedOut(location: feed.source.info.location,
                message: "playback stalled for longer than the stall timeout of \(limit.millisecondText) s (network \(delivery.profile))")
        }
    }

    /// A replay the state machine started: the media starts again from its first frame. Whether it did.
    mutating func replay(_ reopen: (() throws(MediaError) -> any MediaSource)?) throws(MediaError) -> Bool {
        guard machine.play != play else { return false }
        play = machine.play
        guard let reopen else { throw MediaError.readFailed(location: feed.source.info.location, message: "replay needs the media reopened") }
        feed.restart(with: try reopen())
        dataEnd = try PlaybackEngine.firstPicture(of: feed.source, presented: &report).end
        takeNext()
        return true
    }

    /// Under a simulated network, the frame due has not arrived: playback stalls until `rebuffer` of media from here
    /// has (all of it, near the end). Whether it stalled.
    nonisolated(nonsending) mutating func simulatedStall(at target: Duration, onEvent: Emit) async -> Bool {
        guard play == 1, let delivery = configuration.delivery, let frame = upcoming,
              delivery.available(through: frame.time).map({ $0 > target }) ?? true else { return false }
        report.rebuffers += 1
        stall = (target, delivery.available(through: frame.time + delivery.rebuffer).map { max($0, target) })
        await emit(machine.startBuffering(at: target), to: onEvent)
        return true
    }

    /// Under a real (throttled) network, the frame's bytes came after its time: playback stalled there, and restarts
    /// once `rebuffer` more media has really been read (or the data ends), measured on the session's clock (real
    /// time, scaled by --speed). Whether it stalled.
    nonisolated(nonsending) mutating func measuredStall<C: Clock>(at target: Duration, lateness: Duration, clock: C, from sessionStart: C.Instant,
                                          onEvent: Emit) async throws(MediaError) -> Bool where C.Duration == Duration {
        guard play == 1, let measured = configuration.measuredNetwork, let frame = upcoming, lateness > configuration.stallThreshold,
              upcomingWaited else { return false }
        report.rebuffers += 1
        await emit(machine.startBuffering(at: target), to: onEvent)
        let began = clock.now
        feed.buffer(through: frame.time + measured.rebuffer, after: frame.time)
        let ready = max(target, sessionStart.duration(to: clock.now))
        report.rebufferTime += ready - target
        if let limit = measured.stallTimeout, began.duration(to: clock.now) > limit {
            throw MediaError.networkTimedOut(location: feed.source.info.location,
                message: "playback stalled for longer than the stall timeout of \(limit.millisecondText) s")
        }
        now = max(now, ready)
        await emit(machine.finishBuffering(at: ready), to: onEvent)
        return true
    }

    /// Presents the frame due (late or stalled in real time), then, on a stepped clock, every frame due before the
    /// next other thing.
    mutating func present(at target: Duration, lateness: Duration, due: Due) {
        guard let frame = upcoming else { return }
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
        takeNext()
        // Strictly before the next other due time: at an equal instant boundaries and steps go first.
        if batchesFrames { presentRun(before: PlaybackEngine.earliest(due.boundary, due.action, nil, nil)) }
    }

    /// The frames due before `other`, presented at once.
    mutating func presentRun(before other: Duration?) {
        // A replayed timeline's frames are taken straight from its array (a fleet replays hundreds per session: no
        // protocol call, no read-ahead bookkeeping each; nothing is read ahead there).
        let replay = feed.isEmpty ? feed.source.replay : nil
        if let replay, upcoming != nil, feed.pendingFailure == nil, machine.phase == .playing, !machine.buffering,
           let mapping = machine.clockMapping {
            // A run of them at once: the timeline finds where the frames due before `other` end (or an index before
            // that) and adds the run up; the loop below takes the rest one by one.
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
                upcomingWaited = feed.waited
            }
        }
        while feed.pendingFailure == nil, machine.phase == .playing, !machine.buffering, let next = upcoming, next.time < duration {
            guard let due = machine.clock(forPlayhead: next.time), other.map({ due < $0 }) ?? true else { break }
            now = max(now, due)
            report.present(next)
            dataEnd = max(dataEnd, next.end)
            if let replay {
                upcoming = replay.nextReplayedFrame()
                upcomingWaited = feed.waited
            } else {
                takeNext()
            }
        }
    }

    /// The ad failed with `error`: its events delivered, the report closed, the failure to throw.
    nonisolated(nonsending) mutating func failed(_ error: MediaError, onEvent: Emit) async -> PlaybackFailure {
        let events = machine.fail(error, at: now)
        await emit(events, to: onEvent)
        report.stepsHandled = step
        report.statistics = feed.statistics
        report.finish(machine, clock: now)
        return PlaybackFailure(error: error, report: report, playhead: events.first?.playhead ?? machine.playhead(at: now), clock: now)
    }

    /// Cancelled at `clock`: the report so far.
    mutating func interrupted(at clock: Duration) -> PlaybackReport {
        report.statistics = feed.statistics
        report.interrupted = true
        report.finish(machine, clock: clock)
        return report
    }

    /// The ad closed: script steps after it are reported, never dropped silently (in a pod, they are the next ad's).
    nonisolated(nonsending) mutating func finished(onEvent: Emit) async -> PlaybackReport {
        report.stepsHandled = step
        // Killed (`terminate`): the steps after it never happen, and nothing is left to say so.
        while !configuration.rules.handsOver, machine.ending != .terminated, step < script.steps.count {
            // A playout limit the ad never reached is the player's, not a step the script lost.
            if script.steps[step].inputs != [.playoutLimit] { await emit([machine.ignored(script.steps[step].text, at: now)], to: onEvent) }
            step += 1
        }
        report.statistics = feed.statistics
        report.finish(machine, clock: now)
        return report
    }
}
