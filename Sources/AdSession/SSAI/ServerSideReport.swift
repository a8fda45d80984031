/// What the stitcher fired in a server-side session and when, against when the client reached the same point.
public struct ServerSideReport: Sendable, Equatable {
    /// One timed event of one ad, as the stitcher fired it.
    public struct Timing: Sendable, Equatable {
        /// The ad's place in the session (1-based; a pod's ads in order).
        public var ad: Int
        public var event: String
        /// A progress event's offset.
        public var offset: Duration?
        /// The media time the event stands for (0, 25/50/75 % of the duration, the end, a progress offset).
        public var point: Duration
        /// The segment holding it (0-based).
        public var segment: Int
        /// The ad playhead at which the player requested that segment.
        public var requestPlayhead: Duration
        /// Session time the stitcher fired it at.
        public var serverClock: Duration
        /// Session time the client reached the same point; nil when it never did (a prefetched segment counted as
        /// a view no one saw).
        public var clientClock: Duration?
        /// Beacons fired for it.
        public var beacons = 0

        public init(ad: Int, event: String, offset: Duration?, point: Duration, segment: Int, requestPlayhead: Duration, serverClock: Duration,
                    clientClock: Duration? = nil, beacons: Int = 0) {
            (self.ad, self.event, self.offset, self.point, self.segment) = (ad, event, offset, point, segment)
            (self.requestPlayhead, self.serverClock, self.clientClock, self.beacons) = (requestPlayhead, serverClock, clientClock, beacons)
        }

        /// How far the server ran ahead of the client (client − server); nil when the client never got there.
        public var lead: Duration? { clientClock.map { $0 - serverClock } }
    }

    public var insertion: ServerSideInsertion
    public var timings: [ServerSideReport.Timing]

    /// Events the stitcher counted that the viewer never reached.
    public var unseen: [Timing] { timings.filter { $0.clientClock == nil } }
}
