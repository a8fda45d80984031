import PlayerEngine

/// What a scenario implies, worked out from the rules and not from a run: the tracking events a session of that
/// scenario fires, with how often. A fleet compares what its sessions really fired (and what the sink received) with
/// the sum of these, so an engine that fires a quartile twice, late or never shows up as a difference.
///
/// The rules (docs/guides/qa.md "Scripts", VAST 4.x §3.14): every session shows its first frame (loaded, impression,
/// creativeView, start). A boundary (quartile, progress offset) fires when the playhead reaches it; one at the
/// very instant of a skip or close still fires (boundaries come first). A pause, a background span or an open
/// click-through is one pause and one resume. A video played to its end, or skipped with the end card shown after
/// skips, ends on the end card (the companion's creativeView) or the replay screen, which the simulated viewer closes
/// (closeLinear); a video closed early is closeLinear at once.
public struct FleetOracle: Sendable {
    /// What the oracle needs to know of the ad: its timing, end screen, click-through, icons and viewability rules.
    public struct Facts: Sendable, Equatable {
        /// The media's duration, on which quartiles are computed.
        public var duration: Duration
        /// The progress offsets, as playhead times.
        public var progressOffsets: [Duration]
        /// Skippable only when below the duration.
        public var skipOffset: Duration?
        /// A companion is shown as the end card (otherwise the replay screen is).
        public var hasEndCard: Bool
        /// The end card (or replay screen) is shown after a skip too.
        public var endCardAfterSkip: Bool
        /// The video has a ClickThrough, so a click scenario opens it (one pause and one resume).
        public var hasClickThrough: Bool
        /// The icons: each shows (IconViewTracking) once the playhead reaches its offset, if that is before the end.
        public var icons: [PlaybackRules.IconRule]
        /// Whether viewability is decided, and how (`PlaybackRules.viewability`).
        public var viewability: PlaybackRules.Viewability = .off

        /// A skip offset at or past `duration` is dropped (not skippable).
        public init(duration: Duration, progressOffsets: [Duration], skipOffset: Duration?, hasEndCard: Bool, endCardAfterSkip: Bool, hasClickThrough: Bool,
                    icons: [PlaybackRules.IconRule] = []) {
            self.duration = duration
            self.progressOffsets = progressOffsets
            self.skipOffset = skipOffset.flatMap { $0 < duration ? $0 : nil }
            self.hasEndCard = hasEndCard
            self.endCardAfterSkip = endCardAfterSkip
            self.hasClickThrough = hasClickThrough
            self.icons = icons
        }
    }

    /// One kind of tracking event: a name, for progress its offset, for an icon's its index.
    public struct Event: Sendable, Hashable, Comparable {
        /// The event's name.
        public var name: PlaybackEvent.Name
        /// For `progress`: its offset as a playhead time; nil otherwise.
        public var offset: Duration?
        /// For an icon's event: the icon's index; nil otherwise.
        public var icon: Int?

        /// An event kind, with `offset` for progress and `icon` for an icon's event.
        public init(_ name: PlaybackEvent.Name, offset: Duration? = nil, icon: Int? = nil) {
            self.name = name
            self.offset = offset
            self.icon = icon
        }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.name.rawValue, lhs.offset ?? .zero, lhs.icon ?? -1) < (rhs.name.rawValue, rhs.offset ?? .zero, rhs.icon ?? -1)
        }
    }

    /// The ad the oracle reasons about.
    public let facts: Facts

    /// An oracle for the ad described by `facts`.
    public init(facts: Facts) { self.facts = facts }

    /// The events a session of `scenario` fires, each with its count; on a simulated `network`, with its stalls
    /// (none when the media is not ready in time: the session fails with 402 and plays nothing).
    /// - Parameter endsThePod: the ad is a single ad or the last of its pod (an earlier pod ad hands over to the next
    ///   at its end: no end card, replay screen or closeLinear).
    public func events(of scenario: FleetScenario, network: Network? = nil, endsThePod: Bool = true) -> [Event: Int] {
        var events: [Event: Int] = [:]
        if let network, !network.loads { return events }
        func add(_ name: PlaybackEvent.Name, offset: Duration? = nil) { events[Event(name, offset: offset), default: 0] += 1 }
        for name in [PlaybackEvent.Name.loaded, .impression, .creativeView, .start] { add(name) }
        let duration = facts.duration
        /// How far an uninterrupted play gets, and the playhead at a clock time (they differ only by stalls).
        let reach = network?.reach(duration: duration) ?? duration
        func playhead(atClock clock: Duration) -> Duration { network?.playhead(atClock: clock) ?? clock }
        /// Boundaries reached by a playhead of `reach`.
        func boundaries(upTo reach: Duration) {
            for (name, at) in [(PlaybackEvent.Name.firstQuartile, duration / 4), (.midpoint, duration / 2), (.thirdQuartile, duration * 3 / 4), (.complete, duration)]
            where at <= reach { add(name) }
            for offset in Set(facts.progressOffsets) where offset >= .zero && offset <= duration && offset <= reach { add(.progress, offset: offset) }
            for (index, icon) in facts.icons.enumerated() where icon.offset < duration && icon.offset <= reach {
                events[Event(.iconShown, icon: index), default: 0] += 1
            }
        }
        /// The video played to its end: the end card or replay screen, which the viewer closes. A play the media
        /// stopped arriving for is abandoned instead.
        func toTheEnd() {
            boundaries(upTo: reach)
            if reach == duration { endScreen() }
        }
        func endScreen() {
            guard endsThePod else { return }
            if facts.hasEndCard { add(.endCardShown) }
            add(.closeLinear)
        }
        /// Viewability (off the network: fleets on simulated networks decide it `undetermined`): the run of played
        /// video in view breaks where the scenario suppresses playback; `viewable` when a run reaches 2 s before the
        /// ad's execution ends at `end`, else `notViewable`.
        func viewability(breakAt pause: Duration?, end: Duration) {
            switch facts.viewability {
            case .off: return
            case .undetermined: add(.viewUndetermined)
            case .measured:
                let need = PlaybackRules.viewableTime
                let viewable = pause.map { $0 >= need || end - $0 >= need } ?? (end >= need)
                add(viewable ? .viewable : .notViewable)
            }
        }
        switch scenario.kind {
        case .complete:
            viewability(breakAt: nil, end: reach)
            toTheEnd()
        case .background, .pause:
            add(.pause)
            add(.resume)
            viewability(breakAt: playhead(atClock: scenario.at ?? .zero), end: reach)
            toTheEnd()
        case .click:
            add(.click)
            if facts.hasClickThrough {
                add(.pause)
                add(.resume)
            }
            viewability(breakAt: facts.hasClickThrough ? playhead(atClock: scenario.at ?? .zero) : nil, end: reach)
            toTheEnd()
        case .skip:
            let at = playhead(atClock: scenario.at ?? .zero)
            if let offset = facts.skipOffset, at >= offset {
                boundaries(upTo: at)
                add(.skip)
                viewability(breakAt: nil, end: at)
                if facts.endCardAfterSkip { endScreen() }
            } else {
                // Not skippable (yet): the skip is refused and the video plays on.
                viewability(breakAt: nil, end: reach)
                toTheEnd()
            }
        case .close, .terminate:  // a kill (terminate): what was reached, then nothing (no closeLinear, no viewability)
            let at = playhead(atClock: scenario.at ?? .zero)
            boundaries(upTo: at)
            guard scenario.kind == .close else { break }
            add(.closeLinear)
            viewability(breakAt: nil, end: at)
        }
        return events
    }

    /// An ad pod's sessions: what each ad that plays fires (`ads` in play order, by place). The scenario acts on
    /// the ad at its place (`FleetScenario.ad`); the others play to their end; a close ends the pod, so the ads
    /// after it fire nothing (nil).
    public static func events(of scenario: FleetScenario, pod ads: [(place: Int, facts: Facts)]) -> [[Event: Int]?] {
        var closed = false
        return ads.enumerated().map { position, ad in
            guard !closed else { return nil }
            let acted = ad.place == scenario.ad
            if acted, scenario.kind.endsTheBreak { closed = true }
            let own = acted ? scenario : FleetScenario(index: scenario.index, kind: .complete)
            return FleetOracle(facts: ad.facts).events(of: own, endsThePod: position == ads.count - 1)
        }
    }
}
