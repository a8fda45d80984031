import NIOCore
import NIOPosix

/// Runs Swift tasks on a SwiftNIO event loop's thread: a fleet's sessions, and each beacon attempt, prefer the loop
/// their connections live on, so a beacon is written, answered and recorded on one thread. On Swift's cooperative
/// pool every beacon crossed threads twice (to the loop to be written, back to the pool with its answer), and each
/// crossing woke a sleeping thread (a futex and a context switch a beacon, measured with `strace -c`).
///
/// The code that runs here must not block: it shares the thread with every connection of the loop.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The event loop whose thread runs the jobs.
    public let loop: any EventLoop

    /// An executor that runs jobs on `loop`.
    public init(_ loop: any EventLoop) { self.loop = loop }

    /// Runs `job` on the loop's thread, in turn with the loop's other work.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// One executor for each loop of NIO's shared group (the pooled transport's and the embedded sink's).
    public static let shared: [EventLoopTaskExecutor] = MultiThreadedEventLoopGroup.singleton.makeIterator().map(EventLoopTaskExecutor.init)

    /// The executor of the loop this thread runs, when it runs one of `shared`'s.
    public static var current: EventLoopTaskExecutor? {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return nil }
        return shared.first { $0.loop === loop }
    }
}
