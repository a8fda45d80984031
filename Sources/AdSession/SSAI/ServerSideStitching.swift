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
    private(set) var timings: [ServerSideReport.Timing] = []

    init(_ insertion: ServerSideInsertion) { self.insertion = insertion }

    /// An ad's playback is about to start with `plan`: its timed events, placed.
    mutating func begin(_ plan: TrackingPlan) {
        ad += 1
        clientMoments = [:]
        let duration = plan.duration
        let points = ServerSideInsertion.points(duration: duration, progressOffsets: plan.progressOffsets)
        pending = points.map { name, offset, point in
            let segment = insertion.segment(holding: point, duration: duration)
            return Pending(name: name, offset: offset, point: point, segment: segment, request: insertion.requestPlayhead(of: segment))
        }.sorted { ($0.request, $0.point) < ($1.request, $1.point) }
    }

    /// When the client reached each stitched event of the ad being played (its first play).
    private var clientMoments: [String: Duration] = [:]

    private func key(_ name: PlaybackEvent.Name, _ offset: Duration?) -> String { "\(name.rawValue)@\(offset?.wholeMilliseconds ?? -1)" }

    /// The client reached `event` (its first play): its moment, for the skew of what the server fired (or will fire:
    /// the first segment's request counts only once something has played) for it.
    mutating func observe(_ event: PlaybackEvent) {
        guard event.play == 1, Self.stitched.contains(event.name) else { return }
        let key = key(event.name, event.offset)
        guard clientMoments[key] == nil else { return }
        clientMoments[key] = event.clock
        if let index = timings.lastIndex(where: { $0.ad == ad && $0.event == event.name.rawValue && $0.offset == event.offset }) {
            timings[index].clientClock = event.clock
        }
    }

    /// The events whose segments the player has requested by `event`: a segment counts once the playhead has moved
    /// past the point of its request (the first at the first frame: once anything has played), so a viewer who stops
    /// at a request point has not made it. Each is stamped with the session time of its request: the playback
    /// between the request and `event` was continuous (every pause and stall is an event of its own).
    mutating func due(at event: PlaybackEvent) -> [(pending: Pending, clock: Duration)] {
        guard event.play == 1 else { return [] }
        var due: [(Pending, Duration)] = []
        while let next = pending.first, next.request < event.playhead {
            pending.removeFirst()
            let clock = event.clock - (event.playhead - next.request)
            due.append((next, clock))
            timings.append(ServerSideReport.Timing(ad: ad, event: next.name.rawValue, offset: next.offset, point: next.point, segment: next.segment,
                                                   requestPlayhead: next.request, serverClock: clock, clientClock: clientMoments[key(next.name, next.offset)]))
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
