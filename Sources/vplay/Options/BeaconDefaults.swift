import AdSession
import ArgumentParser
import TrackingBeacons

/// What a command that takes `BeaconOptions` sets differently from another.
protocol BeaconDefaults {
    /// `--beacon-concurrency` when it is not given.
    static var beaconConcurrency: Int { get }
    /// What the requests in flight are counted over, as `--beacon-concurrency`'s help ends: "" or " over the fleet".
    static var concurrencyScope: String { get }
}
