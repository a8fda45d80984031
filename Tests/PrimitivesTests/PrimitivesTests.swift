import Foundation
import Primitives
import TestSupport
import Testing

@Suite struct ManualClockTests {
    @Test func sleeper_wakesExactlyWhenTheClockReachesItsDeadline() async throws {
        let clock = ManualClock()
        let woke = Locked<Duration?>(nil)
        let sleeper = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil)
            woke.withLock { $0 = clock.now.offset }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(4999))
        await Task.yield()
        #expect(woke.withLock { $0 } == nil, "not due yet")
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 } == .seconds(5))
    }

    @Test func cancelledSleeper_throwsAndLeaves() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(60)), tolerance: nil) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func deadlineInThePast_returnsAtOnceWithoutMovingTheClock() async throws {
        let clock = ManualClock(now: .seconds(3))
        try await clock.sleep(until: .init(offset: .seconds(1)), tolerance: nil)
        #expect(clock.now.offset == .seconds(3))
    }
}

@Suite struct BlockingExecutorTests {
    /// Work that blocks (FFmpeg) runs on the executor's own threads, never on Swift's cooperative pool.
    @Test func preferredTask_runsOnTheExecutorsThreads() async {
        let executor = BlockingExecutor(threads: 2, name: "test.blocking")
        let ranThere = await withTaskExecutorPreference(executor) { () async -> Bool in
            executor.isCurrent
        }
        #expect(ranThere)
        #expect(!executor.isCurrent, "the test itself is not on it")
    }

    @Test func blockedThread_doesNotStopOtherPreferredTasks() async {
        let executor = BlockingExecutor(threads: 2, name: "test.blocking2")
        let release = DispatchSemaphore(value: 0)
        // One task blocks a thread of the executor (as an FFmpeg read would) until the other has run there too.
        async let blocked: Bool = withTaskExecutorPreference(executor) { () async -> Bool in
            Self.block(on: release)
            return executor.isCurrent
        }
        let other = await withTaskExecutorPreference(executor) { () async -> Bool in executor.isCurrent }
        release.signal()
        #expect(await blocked)
        #expect(other)
    }

    /// A synchronous wait, as blocking C code does.
    private static func block(on semaphore: DispatchSemaphore) { semaphore.wait() }
}

@Suite struct DurationUnitsTests {
    @Test func oneRoundingRule_toTheNearestMillisecond() {
        let twoFrames = Duration.seconds(2) / 30  // 0.0666… s
        #expect(twoFrames.clockText == "00:00:00.067")
        #expect(twoFrames.millisecondText == "0.067")
        #expect(twoFrames.reportedSeconds == 0.067)
        #expect(twoFrames.wholeMilliseconds == 66)
        #expect(twoFrames.millisecondsRoundedUp == 67)
    }

    @Test func clockText_clampsNegativeAndCarriesHours() {
        #expect(Duration.seconds(-1).clockText == "00:00:00.000")
        #expect((Duration.seconds(3723) + .milliseconds(4)).clockText == "01:02:03.004")
        #expect(Duration.seconds(360_000).clockText == "100:00:00.000")
        #expect(Duration.milliseconds(359_999_999).clockText == "99:59:59.999")
        #expect(Duration.milliseconds(1).clockText == "00:00:00.001")
    }

    @Test func millisecondText_isSafeForAnyValue() {
        #expect(millisecondText(seconds: 1e300) == "1e+300")
        #expect(millisecondText(seconds: -0.0424) == "-0.042")
    }
}

/// The virtual clock moves only when slept on (or advanced, which is the same without the async call), and never
/// backwards.
@Suite struct VirtualClockTests {
    @Test func sleepAndAdvance_moveToTheDeadline_neverBack() async throws {
        let clock = VirtualClock()
        try await clock.sleep(until: .init(offset: .milliseconds(250)), tolerance: nil)
        #expect(clock.now.offset == .milliseconds(250))
        clock.advance(to: .init(offset: .milliseconds(100)))
        #expect(clock.now.offset == .milliseconds(250), "a deadline passed already does not move it")
        clock.advance(to: .init(offset: .seconds(2)))
        try await clock.sleep(until: .init(offset: .seconds(1)), tolerance: nil)
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func sleep_inACancelledTask_throws_andDoesNotMove() async {
        let clock = VirtualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(offset: .seconds(1)), tolerance: nil)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.now.offset == .zero)
    }
}
