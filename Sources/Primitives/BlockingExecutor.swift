import Foundation

/// A `TaskExecutor` on threads of its own, for work that blocks a thread: FFmpeg's open, read and decode (network
/// reads wait up to their timeouts). Swift's cooperative pool has one thread per core — two here — and a thread
/// blocked in FFmpeg is a thread no other task (beacons, the sink, timers) can use; tasks that prefer this executor
/// (`withTaskExecutorPreference`) run their nonisolated code here instead.
public final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// `pthread_self()` of each of the executor's threads, once it runs.
    private let threadIDs = Locked<Set<UInt>>([])
    /// Prefix of the threads' names (`vplay.media.0`, …), as debuggers and `top -H` show them.
    public let name: String

    /// - Parameter threads: threads to run jobs on, ≥ 1. Sessions that decode at once each block one.
    public init(threads: Int, name: String = "vplay.media") {
        self.name = name
        for index in 0..<max(1, threads) {
            let thread = Thread { self.work() }  // lives as long as the process: never freed
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    /// The process's executor for media work: one thread per core, at least four (a fleet decoding several sessions
    /// at once, an inspection and a session each block one).
    public static let shared = BlockingExecutor(threads: max(4, ProcessInfo.processInfo.activeProcessorCount))

    /// `pthread_self()` of every thread of every `BlockingExecutor`.
    private static let allThreadIDs = Locked<Set<UInt>>([])

    /// Whether the calling code runs on a thread of any `BlockingExecutor` (the shared one, a pod's openers): where
    /// FFmpeg may block. Code that blocks elsewhere holds a cooperative thread or an event loop.
    public static var isAnyCurrent: Bool {
        let current = UInt(pthread_self())
        return allThreadIDs.withLock { $0.contains(current) }
    }

    /// Whether the calling code runs on one of this executor's threads.
    public var isCurrent: Bool {
        let current = UInt(pthread_self())
        return threadIDs.withLock { $0.contains(current) }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        let current = UInt(pthread_self())
        threadIDs.withLock { _ = $0.insert(current) }
        Self.allThreadIDs.withLock { _ = $0.insert(current) }
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
