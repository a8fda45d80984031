import Foundation
import Primitives

/// One thing the page started: a `vplay` child process (run, fleet or audit; after a run, a `lint` of the same tag),
/// what it printed, and who is watching. Events are kept from the start, so a page that connects late (or reopens
/// the run from the history while it still plays) sees all of them.
public final class StudioRun: Sendable {
    public let id: String
    public let kind: StudioRequest.Kind
    public let folder: String

    /// What the page's event stream carries (Server-Sent Events: `event: name`, `data: json`).
    public struct Event: Sendable {
        /// record (a JSON line of the child's stdout), progress (a fleet's), finding (a lint finding), log (a line of
        /// stderr), end.
        public var name: String
        public var data: String
    }

    private struct State {
        var events: [Event] = []
        var finished = false
        var subscribers: [Int: @Sendable (Event) -> Void] = [:]
        var nextSubscriber = 0
        var child: ChildProcess?
        var stopped = false
    }

    private let state = Locked(State())

    init(id: String, kind: StudioRequest.Kind, folder: String) {
        self.id = id
        self.kind = kind
        self.folder = folder
    }

    /// `handler` called with every event so far, then with each later one until the end, in order (on the
    /// publishing thread, under the run's lock: it must only queue); nil when the run had already ended.
    public func subscribe(_ handler: @escaping @Sendable (Event) -> Void) -> Int? {
        state.withLock { state in
            for event in state.events { handler(event) }
            guard !state.finished else { return nil }
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = handler
            return id
        }
    }

    public func unsubscribe(_ subscriber: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: subscriber) }
    }

    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Keeps `event` and hands it to every subscriber, under the lock: each subscriber sees the events in the order
    /// they were kept (a subscriber only queues them: `EventBatch`).
    func publish(_ event: Event, last: Bool = false) {
        state.withLock { state in
            guard !state.finished else { return }
            state.events.append(event)
            for handler in state.subscribers.values { handler(event) }
            if last {
                state.finished = true
                state.subscribers = [:]
            }
        }
    }

    func attach(_ child: ChildProcess?) -> Bool {
        state.withLock { state in
            state.child = child
            return !state.stopped
        }
    }

    /// Ctrl-C to the child playing now: it writes what it has (reports, logs) and exits 130.
    public func stop() {
        let child = state.withLock { state -> ChildProcess? in
            state.stopped = true
            return state.child
        }
        child?.interrupt()
    }

    var wasStopped: Bool { state.withLock { $0.stopped } }
}
