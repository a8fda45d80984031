import PlayerEngine

/// The stitcher's side of a server-side session (`--ssai server`): for each ad, its timed events placed in the
/// segments that hold them, fired when the player has requested those segments (by the playhead the engine reports),
/// stamped with the session time of the request; and the client's own moments for the same events, for the skew.
struct ServerSideStitching {
    let insertion: ServerSideInsertion
    /// The events a stitcher times (MediaTailor's server-side beacons, with creativeView and progress by the same rule).
    static let stitched: Set<PlaybackEvent.Name> = [.impression, .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .progress]

    /// One timed event of the ad being played, waiting for its segment's request.
    struct Pending {
        var name: PlaybackEvent.Name
        var offset: Duration?
        var point: Duration
        var segment: Int
        var request: Duration
    }

    private var pending: [Pending] = []
    private var ad = 0
    /// The ad's playback is over (complete, skipped, closed, failed): no segment is requested any more.
    private var ended = false
    private(set) var timings: [ServerSideReport.Timing] = []

    init(_ insertion: ServerSideInsertion) { self.insertion = insertion }

    /// An ad's playback is about to start with `plan`: its timed events, placed.
    mutating func begin(_ plan: TrackingPlan) {
        ad += 1
        ended = false
        let duration = plan.duration
        let points: [(PlaybackEvent.Name, Duration?, Duration)] = [
            (.impression, nil, .zero), (.creativeView, nil, .zero), (.start, nil, .zero), (.firstQuartile, nil, duration / 4),
            (.midpoint, nil, duration / 2), (.thirdQuartile, nil, duration * 3 / 4), (.complete, nil, duration),
        ] + plan.progressOffsets.filter { $0 <= duration }.map { (.progress, $0, $0) }
        pending = points.map { name, offset, point in
            let segment = insertion.segment(holding: point, duration: duration)
            return Pending(name: name, offset: offset, point: point, segment: segment, request: insertion.requestPlayhead(of: segment))
        }.sorted { ($0.request, $0.point) < ($1.request, $1.point) }
    }

    /// The client reached `event` (its first play): its moment, for the skew of what the server fired for it (which
    /// `due` has fired by then: a segment is requested no later than its first frame plays).
    mutating func observe(_ event: PlaybackEvent) {
        guard event.play == 1, Self.stitched.contains(event.name),
              let index = timings.lastIndex(where: { $0.ad == ad && $0.event == event.name.rawValue && $0.offset == event.offset }),
              timings[index].clientClock == nil else { return }
        timings[index].clientClock = event.clock
    }

    /// The events whose segments the player has requested by `event` (at its playhead), each with the session time
    /// of its request: the playback between the request and `event` was continuous (every pause and stall is an
    /// event of its own).
    mutating func due(at event: PlaybackEvent) -> [(pending: Pending, clock: Duration)] {
        guard event.play == 1, !ended else { return [] }
        // Playback that stops here requests nothing more at this playhead (nor after: the ad's stream is left);
        // playback that goes on has requested it.
        let stops = [PlaybackEvent.Name.skip, .closeLinear, .close, .error, .abandoned].contains(event.name)
        if stops || event.name == .complete { ended = true }
        var due: [(Pending, Duration)] = []
        while let next = pending.first, next.request < event.playhead || (next.request == event.playhead && !stops) {
            pending.removeFirst()
            let clock = event.clock - (event.playhead - next.request)
            due.append((next, clock))
            timings.append(ServerSideReport.Timing(ad: ad, event: next.name.rawValue, offset: next.offset, point: next.point, segment: next.segment,
                                                   requestPlayhead: next.request, serverClock: clock))
        }
        return due
    }

    /// Counts the beacons fired for the last timing of `name`.
    mutating func counted(_ beacons: Int, for name: PlaybackEvent.Name, offset: Duration?) {
        if let index = timings.lastIndex(where: { $0.ad == ad && $0.event == name.rawValue && $0.offset == offset }) {
            timings[index].beacons += beacons
        }
    }
}
