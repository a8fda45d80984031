import Primitives
import PlayerEngine
import TrackingBeacons

/// What one simulated viewer of a fleet does, drawn from the fleet's mix by a generator seeded with the fleet's
/// seed and the session's index: the same index gives the same scenario in every run and in every shard.
///
/// The distributions (all times in whole milliseconds, uniform; `D` is the media's duration):
/// - `complete`: watches to the end.
/// - `background`: the app goes to the background (resign active + enter background) at 5–95 % of `D` and comes
///   back 1–30 s later (a call, a notification); then watches to the end.
/// - `pause`: the user pauses at 5–95 % of `D` for 0.5–10 s; then watches to the end.
/// - `click`: the user clicks at 5–95 % of `D`; the click-through stays open 1–10 s; then watches to the end.
/// - `skip`: the user skips somewhere between the skip offset and the end; on an ad that is not skippable the skip
///   (at 5–95 % of `D`) is refused and the video plays to the end.
/// - `close`: the user closes the video at 2–98 % of `D` (the reward is forfeited).
/// - `terminate`: the app is killed at 2–98 % of `D` (nothing more fires: no closeLinear, no forfeit; the reward is
///   lost).
/// The interruption is the first thing that happens, so its session-clock time equals its playhead.
public struct FleetScenario: Sendable, Equatable, Codable {
    /// What the simulated viewer does, as named in `--mix`; ordered as declared.
    public enum Kind: String, Sendable, Codable, CaseIterable, Comparable {
        /// `complete` watches to the end; each other kind interrupts the play once (see `FleetScenario`).
        case complete, background, pause, click, skip, close, terminate
        public static func < (lhs: Self, rhs: Self) -> Bool { allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)! }
        /// The viewer's ad is the last of the break to play anything: a close, or the app killed.
        public var endsTheBreak: Bool { self == .close || self == .terminate }
    }

    /// The session's index in the whole (unsharded) fleet.
    public var index: Int
    /// What the viewer does.
    public var kind: Kind
    /// When the interruption happens (session clock and playhead alike); nil for `complete`.
    public var at: Duration?
    /// How long it lasts (background span, pause, click-through open); nil when it ends the video.
    public var length: Duration?
    /// In an ad pod: the place of the ad it happens in (`at` counts from that ad's first frame); nil for a single ad.
    public var ad: Int?

    /// The ad facts the draws depend on.
    public struct Facts: Sendable, Equatable {
        /// The media's duration.
        public var duration: Duration
        /// The skip offset resolved against the duration, when the ad is skippable (offset below the duration).
        public var skipOffset: Duration?

        /// A skip offset at or past `duration` is dropped (not skippable).
        public init(duration: Duration, skipOffset: Duration?) {
            self.duration = duration
            self.skipOffset = skipOffset.flatMap { $0 < duration ? $0 : nil }
        }
    }

    /// A scenario as given; `ad` is nil (a single ad).
    public init(index: Int, kind: Kind, at: Duration? = nil, length: Duration? = nil) {
        self.index = index
        self.kind = kind
        self.at = at
        self.length = length
    }

    /// The scenario of session `index` of a fleet seeded with `seed`.
    public static func draw(index: Int, seed: UInt64, mix: FleetMix, facts: Facts) -> FleetScenario {
        draw(index: index, seed: seed, mix: mix, pod: [(nil, facts)])
    }

    /// The scenario of session `index` of a fleet of an ad pod (`pod`: the ads that play, by place): its kind, then
    /// the ad it happens in (uniform over the ads), then its times by that ad's facts. A single ad draws no ad.
    public static func draw(index: Int, seed: UInt64, mix: FleetMix, pod: [(place: Int?, facts: Facts)]) -> FleetScenario {
        var generator = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03) ^ 0x666C_6565_7453_6365)
        let kind = mix.kind(at: Int(generator.next() % UInt64(mix.total)))
        let (place, facts) = pod.count > 1 && kind != .complete ? pod[Int(generator.next() % UInt64(pod.count))] : pod[0]
        var scenario = drawTimes(kind, index: index, generator: &generator, facts: facts)
        scenario.ad = kind == .complete ? nil : place
        return scenario
    }

    private static func drawTimes(_ kind: Kind, index: Int, generator: inout SplitMix64, facts: Facts) -> FleetScenario {
        let duration = facts.duration.wholeMilliseconds
        func uniform(_ low: Int64, _ high: Int64) -> Int64 {
            high <= low ? low : low + Int64(generator.next() % UInt64(high - low))
        }
        func share(_ percent: Int64) -> Int64 { duration * percent / 100 }
        switch kind {
        case .complete:
            return FleetScenario(index: index, kind: kind)
        case .background:
            return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(share(5), share(95))), length: .milliseconds(uniform(1_000, 30_000)))
        case .pause:
            return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(share(5), share(95))), length: .milliseconds(uniform(500, 10_000)))
        case .click:
            return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(share(5), share(95))), length: .milliseconds(uniform(1_000, 10_000)))
        case .skip:
            if let offset = facts.skipOffset {
                // From the first whole millisecond at or after the offset, up to (not including) the end.
                return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(offset.millisecondsRoundedUp, duration)))
            }
            return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(share(5), share(95))))
        case .close, .terminate:
            return FleetScenario(index: index, kind: kind, at: .milliseconds(uniform(share(2), share(98))))
        }
    }

    /// The steps a session plays for this scenario.
    public var script: SessionScript {
        guard let at else { return SessionScript() }
        func step(_ time: Duration, _ inputs: [SessionInput], _ text: String) -> SessionScript.Step {
            SessionScript.Step(at: time, ad: ad, inputs: inputs, text: text)
        }
        let end = at + (length ?? .zero)
        switch kind {
        case .complete:
            return SessionScript()
        case .background:
            return SessionScript(steps: [step(at, [.lifecycle(.willResignActive), .lifecycle(.didEnterBackground)], "background"),
                                         step(end, [.lifecycle(.willEnterForeground), .lifecycle(.didBecomeActive)], "foreground")])
        case .pause:
            return SessionScript(steps: [step(at, [.action(.pause)], "pause"), step(end, [.action(.resume)], "resume")])
        case .click:
            return SessionScript(steps: [step(at, [.action(.click)], "click"), step(end, [.action(.clickthroughClose)], "clickthroughClose")])
        case .skip:
            return SessionScript(steps: [step(at, [.action(.skip)], "skip")])
        case .close:
            return SessionScript(steps: [step(at, [.action(.close)], "close")])
        case .terminate:
            return SessionScript(steps: [step(at, [.terminate], "terminate")])
        }
    }
}

