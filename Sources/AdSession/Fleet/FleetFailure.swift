import Primitives
import BeaconSink
import Foundation
import Histogram
import PlayerEngine
import TrackingBeacons
import VAST

/// Why a fleet could not play at all: the ad's or the media's error (with its VAST code), and the warnings before it.
public struct FleetFailure: Error, Sendable {
    /// The ad's or the media's error, with its VAST code.
    public var error: SessionError
    /// The warnings reported before the error.
    public var warnings: [String]
    /// What the sessions did all the same (each fired the Error URLs a single session fires), with `error` set: the
    /// report `--report` and `--junit` write. Nil when no session ran (a usage error, an output over the media).
    public var report: FleetReport? = nil
}
