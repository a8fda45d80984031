/// The playhead boundaries of one play and which of them have fired: quartiles at exactly 25/50/75/100 % of the
/// media's duration and progress offsets (already resolved to times). Pure: it takes playheads, returns events.
///
/// Each boundary fires once per play, when the playhead first reaches it (≥, so a boundary hit exactly fires at that
/// instant), in time order; a jump over several fires them all, in order, each at the playhead reached.
public struct Milestones: Sendable, Equatable {
    /// One boundary: the event it fires and the playhead it fires at.
    public struct Boundary: Sendable, Equatable {
        /// The event it fires (a quartile, `complete` or `progress`).
        public var name: PlaybackEvent.Name
        /// The playhead it fires at.
        public var at: Duration
        /// For progress boundaries: the offset as scheduled.
        public var offset: Duration?
    }

    /// Every boundary of the play, in time order.
    public private(set) var boundaries: [Boundary]
    private var nextIndex = 0

    /// - Parameters:
    ///   - duration: the media's duration; quartiles are `duration/4`, `duration/2`, `3·duration/4`, `duration`.
    ///   - progressOffsets: VAST progress offsets already resolved against `duration` (percentages exactly).
    public init(duration: Duration, progressOffsets: [Duration] = []) {
        var all: [Boundary] = [
            Boundary(name: .firstQuartile, at: duration / 4),
            Boundary(name: .midpoint, at: duration / 2),
            Boundary(name: .thirdQuartile, at: duration * 3 / 4),
            Boundary(name: .complete, at: duration),
        ]
        for offset in Set(progressOffsets) where offset >= .zero && offset <= duration {
            all.append(Boundary(name: .progress, at: offset, offset: offset))
        }
        // Stable order: by time; at the same time progress before the quartile, complete last.
        boundaries = all.enumerated().sorted { lhs, rhs in
            if lhs.element.at != rhs.element.at { return lhs.element.at < rhs.element.at }
            if lhs.element.name == .complete || rhs.element.name == .complete { return rhs.element.name == .complete && lhs.element.name != .complete }
            if (lhs.element.name == .progress) != (rhs.element.name == .progress) { return lhs.element.name == .progress }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The playhead of the next boundary not fired yet.
    public var next: Duration? { nextIndex < boundaries.count ? boundaries[nextIndex].at : nil }

    /// Fires every boundary at or before `playhead` that has not fired.
    public mutating func advance(to playhead: Duration) -> [Boundary] {
        var fired: [Boundary] = []
        while nextIndex < boundaries.count, boundaries[nextIndex].at <= playhead {
            fired.append(boundaries[nextIndex])
            nextIndex += 1
        }
        return fired
    }
}
