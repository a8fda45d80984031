import Foundation

/// The CPU time the calling thread spends in some work. Budgets for CPU-bound work (a parser that must refuse an
/// input up front rather than spend minutes in libxml2) measure this, not wall time: tests running in parallel on the
/// same two cores stretch the wall time of the work several-fold, but not the CPU time it costs.
public enum ThreadCPUTime {
    /// The calling thread's CPU time spent in `work` (which must not hop threads: synchronous code).
    public static func measure(_ work: () throws -> Void) rethrows -> Duration {
        let start = now()
        try work()
        return now() - start
    }

    private static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
