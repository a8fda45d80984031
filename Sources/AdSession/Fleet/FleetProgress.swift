/// Where a fleet is at, for a progress bar.
public struct FleetProgress: Sendable {
    /// Sessions finished so far.
    public var sessionsDone: Int
    /// Sessions to play in all.
    public var sessions: Int
    /// Beacons sent so far.
    public var beaconsSent: Int
    /// Beacons answered so far.
    public var beaconsAnswered: Int
    /// Seconds elapsed on the network clock since the fleet started.
    public var seconds: Double
    /// Impressions, starts, quartiles and completes played so far, by event name: the live reach funnel.
    public var reach: [String: Int] = [:]
}
