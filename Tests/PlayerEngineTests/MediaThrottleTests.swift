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

    func options(_ stopwatch: SetStopwatch, loadTimeout: Duration) throws -> MediaOpenOptions {
        var options = MediaOpenOptions(loadTimeout: loadTimeout)
        options.throttle = MediaThrottle(profile: try NetworkProfile(parsing: "kbps=100"), speed: 1, stopwatch: stopwatch.factory)
        return options
    }

    @Test func stoppedStopwatch_noByteArrives_andTheLoadTimesOut() async throws {
        let stopwatch = SetStopwatch()
        let error = try await decodeFailure(clip, options: try options(stopwatch, loadTimeout: .milliseconds(300)))
        #expect(error?.kind == "load-timed-out", "\(String(describing: error))")
    }

    @Test func stopwatchAnHourOn_everyByteHasArrived_andTheWholeFileDecodes() async throws {
        let stopwatch = SetStopwatch()
        stopwatch.elapsed.withLock { $0 = .seconds(3600) }
        // At 100 kbps the file takes seconds of the machine's time to arrive; on this stopwatch it is all there.
        let (statistics, error) = try await decodeToTheEnd(clip, options: try options(stopwatch, loadTimeout: .seconds(60)))
        #expect(error == nil)
        #expect(statistics.frames == (try await ProbeTruth.of(clip)).frames.values.reduce(0, +))
    }
}
