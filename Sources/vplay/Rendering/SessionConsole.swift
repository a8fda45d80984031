import Primitives
import AdSession
import Foundation
import PlayerEngine
import TrackingBeacons

/// Writes a session's records to stdout as they happen: JSON Lines (`--json`) or one readable line each, coloured
/// on a terminal. In real-time runs on a terminal, a status line on stderr shows what a viewer would see: progress,
/// the countdown, the skip control and the reward state, redrawn every 100 ms. An actor, because beacon answers
/// arrive from other tasks while playback goes on.
actor SessionConsole {
    let json: Bool
    let style: Style
    /// Real-time speed when the live line is shown; nil = no live line.
    private let liveSpeed: Double?
    private var ticker: Task<Void, Never>?
    private var duration: Double = 0
    private var skipOffset: Double?
    private var reward: Reward?
    private var rewardState = "pending"
    private var anchor: (playhead: Double, wall: ContinuousClock.Instant)?
    private var playing = false
    private var skipped = false
    private var statusShown = false
    /// Set by `finish`: the live line is never drawn again (a tick already on its way when the summary is written
    /// must not draw it under the summary, nor after Ctrl-C).
    private var finished = false
    /// The wall clock the live line is drawn against (injected: the live environment's).
    private let clock: ContinuousClock

    /// The id every JSON line carries (`session`).
    let session: String

    init(json: Bool, session: String, realtimeSpeed: Double?, clock: ContinuousClock = LiveTools.monotonicClock()) {
        self.json = json
        self.session = session
        self.clock = clock
        style = Style.detect(json: json)
        liveSpeed = (!json && !StandardStreams.quiet && isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb") ? realtimeSpeed : nil
    }

    func show(_ record: SessionRecord) {
        track(record)
        clearStatus()
        if json { emit(SessionJSON.line(record, session: session).text) } else { emit(SessionText.line(record, style: style)) }
        drawStatus()
    }

    func finish(_ summary: SessionSummary, exitCode: Int32, expectations: [ExpectationResult]? = nil) {
        stopStatus()
        if let expectations {
            emit(json ? SessionJSON.expectations(expectations, session: session).text : SessionText.expectations(expectations))
        }
        if json { emit(SessionJSON.summary(summary, exitCode: exitCode, expectations: expectations, session: session).text) } else { emit(SessionText.summary(summary, exitCode: exitCode, style: style)) }
    }

    /// A note for the person running vplay, on stderr (stdout stays the timeline or JSON Lines).
    nonisolated func warn(_ text: String) {
        StandardStreams.warn(text)
    }

    /// JSON Lines always (asked for); text unless `--quiet`.
    private func emit(_ line: String) {
        if json { StandardStreams.print(line) } else { StandardStreams.say(line) }
    }

    // MARK: - The live status line

    private func track(_ record: SessionRecord) {
        guard liveSpeed != nil else { return }
        switch record {
        case let .resolved(info):
            duration = info.media.duration
            skipOffset = info.skipOffset?.reportedSeconds
            reward = info.reward
            if ticker == nil {
                ticker = Task { [weak self] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .milliseconds(100))
                        guard !Task.isCancelled else { return }
                        await self?.redraw()
                    }
                }
            }
        case let .event(event):
            anchor = (event.playhead.reportedSeconds, clock.now)
            switch event.name {
            case .start, .resume, .rewind: playing = true
            case .pause, .complete, .skip, .close, .closeLinear, .abandoned: playing = false
            default: break
            }
            if event.name == .skip { skipped = true }
            if event.name == .rewarded { rewardState = "granted" }
            if event.name == .rewardForfeited { rewardState = "forfeited" }
        default:
            break
        }
    }

    private func redraw() {
        clearStatus()
        drawStatus()
    }

    /// Clears the live line for good: at the summary, and when a signal ends the run (before vplay says so).
    func stopStatus() {
        finished = true
        ticker?.cancel()
        ticker = nil
        clearStatus()
    }

    private func drawStatus() {
        guard !finished, let speed = liveSpeed, let anchor, duration > 0 else { return }
        var playhead = anchor.playhead
        if playing {
            let elapsed = anchor.wall.duration(to: clock.now)
            playhead = min(duration, playhead + Double(elapsed.components.seconds) * speed + Double(elapsed.components.attoseconds) / 1e18 * speed)
        }
        let width = 24
        let filled = Int((playhead / duration * Double(width)).rounded(.down))
        var line = (playing ? "▶ " : "❚❚ ") + "[" + String(repeating: "█", count: max(0, min(width, filled))) + String(repeating: "·", count: max(0, width - filled)) + "]"
        line += String(format: " %5.1f / %.1f s · ends in %.1f s", playhead, duration, max(0, duration - playhead))
        if let skip = skipOffset, !skipped {
            line += playhead >= skip ? " · [Skip ›]" : String(format: " · skip in %.1f s", skip - playhead)
        }
        if let reward {
            line += " · reward \(JSON.format(reward.amount)) \(reward.currency): \(rewardState)"
        }
        StandardStreams.error(style.dim(line))
        statusShown = true
    }

    private func clearStatus() {
        guard statusShown else { return }
        StandardStreams.error("\r\u{1B}[K")
        statusShown = false
    }
}
