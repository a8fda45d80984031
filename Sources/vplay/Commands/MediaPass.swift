import Primitives
import AdSession
import ArgumentParser
import Foundation
import PlayerEngine

/// The counts and speed of one decode or demux pass.
struct MediaPass {
    var mode: String
    var statistics: DecodeStatistics
    var wallTime: Duration
    var mediaDuration: Double
    /// Media seconds processed per wall-clock second.
    var speed: Double { mediaDuration / max(wallTime.seconds, 1e-9) }
}
