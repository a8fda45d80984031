import Foundation
import Primitives
import TestSupport
import Testing
@testable import PlayerEngine

/// The real-time network throttle reads time only through the stopwatch it is given (the session's network clock):
/// bytes arrive when that stopwatch says so, whatever the machine's own clock does.
@Suite struct MediaThrottleTests {
    let clip = Repo.media("clip-5s-video-only.mp4")

    /// A stopwatch the test sets: elapsed time is whatever `elapsed` holds.
    final class SetStopwatch: Sendable {
        let elapsed = Locked(Duration.zero)
        var factory: @Sendable () -> @Sendable () -> Duration { { { self.elapsed.withLock { $0 } } } }
    }

    func options(_ stopwatch: SetStopwatch, kbps: Int, loadTimeout: Duration) throws -> MediaOpenOptions {
        var options = MediaOpenOptions(loadTimeout: loadTimeout)
        options.throttle = MediaThrottle(profile: try NetworkProfile(parsing: "kbps=\(kbps)"), speed: 1, stopwatch: stopwatch.factory)
        return options
    }

    /// At 100 Mbit/s the 65 KB file would arrive in milliseconds of the machine's time: only a throttle that reads
    /// the stopped stopwatch keeps every byte back until the load times out.
    @Test func stoppedStopwatch_noByteArrives_andTheLoadTimesOut() async throws {
        let stopwatch = SetStopwatch()
        let error = try await decodeFailure(clip, options: try options(stopwatch, kbps: 100_000, loadTimeout: .milliseconds(300)))
        #expect(error?.kind == "load-timed-out", "\(String(describing: error))")
    }

    /// At 1 kbit/s the file would take minutes of the machine's time, far past the 5 s load limit; on a stopwatch an
    /// hour on (450 KB delivered) it is all there, so only a throttle that reads the stopwatch lets it decode.
    @Test func stopwatchAnHourOn_everyByteHasArrived_andTheWholeFileDecodes() async throws {
        let stopwatch = SetStopwatch()
        stopwatch.elapsed.withLock { $0 = .seconds(3600) }
        let (statistics, error) = try await decodeToTheEnd(clip, options: try options(stopwatch, kbps: 1, loadTimeout: .seconds(5)))
        #expect(error == nil)
        #expect(statistics.frames == (try await ProbeTruth.of(clip)).frames.values.reduce(0, +))
    }
}
