import Primitives
import Foundation

/// Runs a fetch against a timer on an injected clock; the first to finish wins and the other is cancelled.
///
/// Unstructured tasks and a continuation are used rather than a task group on purpose: a task group waits for all
/// of its children before returning, so a fetcher that ignores cancellation would still hang the resolver. Here
/// the resolver continues at the deadline and a stubborn fetch is left to finish (and be discarded) on its own.
public enum TimeoutRace {
    public static func fetch(_ fetcher: any AdTagFetcher, _ url: URL, timeout: Duration,
                      clock: any Clock<Duration>) async -> Result<FetchedTag, VASTError> {
        let gate = Gate()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<FetchedTag, VASTError>, Never>) in
                gate.install(continuation)
                let fetchTask = Task {
                    do {
                        gate.finish(.success(try await fetcher.fetch(url, timeout: timeout)))
                    } catch let error as VASTError {
                        gate.finish(.failure(error))  // the fetcher's code (100 for an oversized body, 301…)
                    } catch {
                        gate.finish(.failure(VASTError(.wrapperTimeout, "\(url.absoluteString): fetch failed: \(error)")))
                    }
                }
                let timerTask = Task {
                    do {
                        try await sleep(on: clock, for: timeout)
                        gate.finish(.failure(VASTError(.wrapperTimeout, "\(url.absoluteString): no response within \(timeout)")))
                    } catch {
                        // Cancelled: the fetch finished first.
                    }
                }
                gate.adopt([fetchTask, timerTask])
            }
        } onCancel: {
            gate.finish(.failure(VASTError(.wrapperTimeout, "cancelled")))
        }
    }

    private static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }

    /// Resumes the continuation exactly once and cancels the losing tasks.
    private final class Gate: @unchecked Sendable {
        private let lock = Locked(())
        private var continuation: CheckedContinuation<Result<FetchedTag, VASTError>, Never>?
        private var pending: Result<FetchedTag, VASTError>?
        private var done = false
        private var tasks: [Task<Void, Never>] = []

        func install(_ c: CheckedContinuation<Result<FetchedTag, VASTError>, Never>) {
            let ready = lock.withLock { _ -> Result<FetchedTag, VASTError>? in
                if let pending { return pending }
                continuation = c
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }

        func adopt(_ newTasks: [Task<Void, Never>]) {
            let late = lock.withLock { _ -> Bool in
                if done { return true }
                tasks = newTasks
                return false
            }
            if late { newTasks.forEach { $0.cancel() } }
        }

        func finish(_ result: Result<FetchedTag, VASTError>) {
            let won = lock.withLock { _ -> (CheckedContinuation<Result<FetchedTag, VASTError>, Never>?, [Task<Void, Never>])? in
                guard !done else { return nil }
                done = true
                let c = continuation
                continuation = nil
                if c == nil { pending = result }
                defer { tasks = [] }
                return (c, tasks)
            }
            guard let (c, toCancel) = won else { return }
            c?.resume(returning: result)
            toCancel.forEach { $0.cancel() }
        }
    }
}
