import Primitives

/// A VMAP document's breaks placed on a content timeline of a known duration: each occurrence of each break (a
/// `repeatAfter` break occurs again and again), in the order a player meets them, and what the placing found.
public struct VMAPSchedule: Sendable, Hashable {
    /// One occurrence of a break.
    public struct Slot: Sendable, Hashable {
        /// The break, by its index in `VMAPDocument.breaks`.
        public var breakIndex: Int
        /// Where on the content clock it falls (a post-roll: the content's end, played after `contentComplete`).
        public var time: Duration
        /// 0 for the break as written, 1, 2, … for its repeats.
        public var occurrence: Int
        /// `[BREAKPOSITION]`: pre 1, mid 2, post 3.
        public var position: Int
    }

    public var slots: [Slot]
    /// What the placing found, in words: breaks never reached, `#n` offsets, repeats given up to another break,
    /// several breaks at one offset.
    public var notes: [String]

    /// Most occurrences of one repeating break (a 1 s `repeatAfter` over a day of content would be 86,400).
    public static let maxRepeats = 1000

    public init(_ document: VMAPDocument, contentDuration: Duration) {
        var slots: [Slot] = []
        var notes: [String] = []
        for (index, adBreak) in document.breaks.enumerated() {
            guard let time = adBreak.timeOffset.resolve(against: contentDuration) else {
                notes.append("break \(index + 1) (\(adBreak.timeOffsetText)): #n names an ad opportunity of the content's own cue points; the simulated content has none, so it is not placed")
                continue
            }
            guard time <= contentDuration else {
                notes.append("break \(index + 1) at \(adBreak.timeOffsetText) is past the content's end (\(contentDuration.clockText)): never reached")
                continue
            }
            let position = adBreak.timeOffset.breakPosition(at: time)
            slots.append(Slot(breakIndex: index, time: time, occurrence: 0, position: position))
            guard let every = adBreak.repeatAfter, adBreak.timeOffset != .end else { continue }
            var next = time + every, occurrence = 1
            while next < contentDuration, occurrence <= Self.maxRepeats {
                slots.append(Slot(breakIndex: index, time: next, occurrence: occurrence, position: 2))
                next += every
                occurrence += 1
            }
        }
        // In the order a player meets them: by content time, a post-roll after everything at the same instant, then
        // as written.
        slots.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if (a.position == 3) != (b.position == 3) { return b.position == 3 }
            if a.occurrence != b.occurrence { return a.occurrence < b.occurrence }
            return a.breakIndex < b.breakIndex
        }
        // A repeat that lands where another break already is gives way to it: the earlier break wins.
        var kept: [Slot] = []
        for slot in slots {
            if slot.occurrence > 0, let other = kept.first(where: { $0.time == slot.time }) {
                notes.append("break \(slot.breakIndex + 1)'s repeat at \(slot.time.clockText) gives way to break \(other.breakIndex + 1), already there")
                continue
            }
            kept.append(slot)
        }
        // Several breaks as written at one offset all play, one after the other, in document order.
        let originals = Dictionary(grouping: kept.filter { $0.occurrence == 0 }, by: { "\($0.time.clockText)/\($0.position)" })
        for (_, group) in originals.sorted(by: { $0.value[0].time < $1.value[0].time }) where group.count > 1 {
            notes.append("\(group.count) breaks at \(group[0].time.clockText) (\(group.map { "break \($0.breakIndex + 1)" }.joined(separator: ", "))) play one after the other, in document order")
        }
        self.slots = kept
        self.notes = notes
    }
}

extension VMAPSchedule {
    /// How long the simulated content lasts when `--content-duration` is not given: 30 s past the latest clock-time
    /// offset (or repeat start) of the document, so every mid-roll written as a time is reached with content left
    /// after it; 5 minutes when the document places its breaks only by percentage, `start` and `end`.
    public static func defaultContentDuration(_ document: VMAPDocument) -> Duration {
        let latest = document.breaks.compactMap { adBreak -> Duration? in
            if case let .time(time) = adBreak.timeOffset { return time }
            return nil
        }.max()
        return latest.map { $0 + .seconds(30) } ?? .seconds(300)
    }
}
