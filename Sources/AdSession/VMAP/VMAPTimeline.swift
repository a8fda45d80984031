import Primitives
import VAST

/// The content clock of a VMAP session: where the content and the session are, which breaks are done, the content
/// script's steps still to come, and the content's spans between breaks. The content moves only on `clock` (a
/// virtual clock moves at once, a real one waits).
struct VMAPTimeline {
    let slots: [VMAPSchedule.Slot]
    /// Seeks and backgrounds still to come, by content time.
    private var steps: ArraySlice<ContentScript.Step>
    /// Where the content ends: its duration, or an earlier `contentComplete@T`.
    let end: Duration
    /// Whether `contentComplete` is ever signalled.
    let completes: Bool
    let clock: any Clock<Duration>

    private(set) var now = VMAPSession.Position()
    private var spanFrom = VMAPSession.Position()
    private(set) var spans: [VMAPRunReport.ContentSpan] = []
    /// Slots done (played, failed, skipped, passed, withheld).
    var handled = Set<Int>()
    /// The breaks a forward seek passed that play at its target: the last one passed, and every one in `mustPlay`.
    private var snapbacks: [Int] = []
    /// Breaks a forward seek may not pass without playing them (an HLS interstitial's `X-RESTRICT=JUMP`).
    let mustPlay: Set<Int>
    /// Breaks numbered so far (play order).
    var number = 0
    private(set) var reachedEnd = false
    /// Session time at which `contentComplete` was signalled.
    private(set) var contentCompleteAt: Duration?
    var contentCompleted: Bool { contentCompleteAt != nil }

    /// A seek the script made: the content jumped from `from` to `to`.
    struct Seek {
        var from: Duration
        var to: Duration
    }

    init(slots: [VMAPSchedule.Slot], script: ContentScript, contentDuration: Duration, clock: any Clock<Duration>, mustPlay: Set<Int> = []) {
        self.slots = slots
        self.mustPlay = mustPlay
        self.clock = clock
        switch script.contentComplete {
        case .atEnd: (end, completes) = (contentDuration, true)
        case let .at(time): (end, completes) = (min(time, contentDuration), true)
        case .never: (end, completes) = (contentDuration, false)
        }
        steps = script.steps[...]
    }

    /// The next break and when it is due: a break a seek passed last (due now), else the earliest mid- or pre-roll
    /// not done that the content still reaches, else a post-roll (due at the content's end).
    mutating func next() -> (index: Int, due: Duration)? {
        if !snapbacks.isEmpty { return (snapbacks.removeFirst(), now.content) }
        if let index = slots.indices.first(where: { !handled.contains($0) && slots[$0].position != 3 && slots[$0].time >= now.content && slots[$0].time < end && !reachedEnd }) {
            return (index, slots[index].time)
        }
        if let index = slots.indices.first(where: { !handled.contains($0) && slots[$0].position == 3 }) {
            return (index, end)
        }
        return nil
    }

    /// Moves the content to `target` (never past its end), running the script's steps on the way; stops at a seek
    /// and returns it. `background` hears each background step, before (`true`) and after (`false`) it.
    mutating func advance(to target: Duration, background: ((_ position: VMAPSession.Position, _ entering: Bool) async -> Void)? = nil) async -> Seek? {
        let target = min(target, end)
        while let step = steps.first, step.at <= target {
            steps.removeFirst()
            await move(to: max(step.at, now.content))
            switch step.action {
            case let .background(length):
                closeSpan()
                await background?(now, true)
                try? await clock.sleep(for: length)
                now.session += length
                spanFrom = now
                await background?(now, false)
            case let .seek(to):
                closeSpan()
                let seek = Seek(from: now.content, to: min(to, end))
                now.content = seek.to
                spanFrom = now
                return seek
            }
        }
        await move(to: target)
        return nil
    }

    private mutating func move(to target: Duration) async {
        guard target > now.content else { return }
        let delta = target - now.content
        try? await clock.sleep(for: delta)
        now.content += delta
        now.session += delta
    }

    /// After a seek: forward, the breaks passed over are done, the last of them kept to play at the target (IMA
    /// plays the last cue point a seek passes), and every one in `mustPlay` before it; backward, nothing is passed
    /// (a break plays once). Returns the breaks passed that will not play.
    mutating func seeked(_ seek: Seek) -> [Int] {
        guard seek.to > seek.from else { return [] }
        let passed = slots.indices.filter { !handled.contains($0) && slots[$0].position != 3 && slots[$0].time >= seek.from && slots[$0].time < seek.to }
        guard let last = passed.last else { return [] }
        snapbacks = passed.filter { $0 == last || mustPlay.contains($0) }
        let others = passed.filter { !snapbacks.contains($0) }
        handled.formUnion(others)
        return others
    }

    /// The content is at its end: `contentComplete` is signalled now unless the script withholds it.
    mutating func markEnd() {
        closeSpan()
        reachedEnd = true
        if completes { contentCompleteAt = now.session }
    }

    /// Ends the content's current span here.
    mutating func closeSpan() {
        if now.content != spanFrom.content || now.session != spanFrom.session {
            spans.append(VMAPRunReport.ContentSpan(from: spanFrom.content, to: now.content, start: spanFrom.session, end: now.session))
        }
        spanFrom = now
    }

    /// A break ended at session time `end`: the content goes on from there.
    mutating func resume(after end: Duration) {
        now.session = end
        spanFrom = now
    }

    /// The content jumps `offset` ahead without playing (an interstitial's resume offset): the breaks it leaves
    /// behind are done, and returned.
    mutating func jump(by offset: Duration) -> [Int] {
        guard offset > .zero else { return [] }
        let from = now.content
        now.content = min(end, now.content + offset)
        spanFrom = now
        let passed = slots.indices.filter { !handled.contains($0) && slots[$0].position != 3 && slots[$0].time > from && slots[$0].time < now.content }
        handled.formUnion(passed)
        return passed
    }

    /// Breaks never met: mid-rolls past an early `contentComplete`, or anything a signal left.
    func unreached() -> [Int] {
        slots.indices.filter { !handled.contains($0) }
    }
}
